export { app, startApp, type AppContext } from './context';
