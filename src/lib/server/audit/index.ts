export {
	appendAudit,
	listAudit,
	verifyAuditChain,
	hashEvent,
	GENESIS,
	type AuditEvent,
	type AuditInput,
	type ChainVerification
} from './audit';
export { renderCertificate, type CertificateInput, type CertificateOutcome } from './certificate';
