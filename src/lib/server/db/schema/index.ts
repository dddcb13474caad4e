export * from './portal';
export * from './sandbox';
export * from './mail';
export * from './evidence';
export * from './reps';
