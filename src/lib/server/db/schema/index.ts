export * from './portal';
export * from './sandbox';
