export const PACKAGE_NAME = '@trufflepig/render';
