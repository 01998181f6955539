export const PACKAGE_NAME = '@trufflepig/rank';
