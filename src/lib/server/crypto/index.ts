export { newToken, hashToken, isTokenShaped, constantTimeEqual } from './tokens';
export { encrypt, decrypt, loadOrCreateKey } from './secretbox';
