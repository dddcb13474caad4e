export { newToken, hashToken, constantTimeEqual } from './tokens';
export { encrypt, decrypt, loadOrCreateKey } from './secretbox';
