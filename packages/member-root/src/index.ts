export const PACKAGE_NAME = '@trufflepig/member-root';
