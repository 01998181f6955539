export const PACKAGE_NAME = '@trufflepig/index';
