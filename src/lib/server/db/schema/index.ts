export * from './portal';
export * from './sandbox';
export * from './mail';
export * from './reps';
