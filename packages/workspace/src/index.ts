export const PACKAGE_NAME = '@trufflepig/workspace';
