export * from './limits';
export * from './paths';
export * from './terms';
export * from './prior';
export * from './fuse';
export * from './filename';
export * from './scopes';
export * from './members';
