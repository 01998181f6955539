export const PACKAGE_NAME = '@trufflepig/config';
