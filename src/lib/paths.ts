/** The rep console's addresses: `/rep` and everything under it. */
export const isRepPath = (path: string) => path === '/rep' || path.startsWith('/rep/');
