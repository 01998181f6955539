export const PACKAGE_NAME = '@trufflepig/result-cache';
