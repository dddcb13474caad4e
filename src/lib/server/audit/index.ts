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
