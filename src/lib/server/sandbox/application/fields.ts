/**
 * Field lists the create transform needs beyond the client's request schema
 * (`$lib/server/onboarding/schemas`, which validates what the sandbox receives).
 */

// The field lists of the document live with the schemas (one place for the interface's shapes).
export { LEASE_FIELDS, NULL_GROUPS, RESPONSE_ONLY_NULL_GROUPS } from '../../onboarding/schemas';

/** Second-owner fields that must be filled when `IsSecondOwner` is true. */
export const SECOND_OWNER_REQUIRED = [
	'Ownr2_Legal_Name_First',
	'Ownr2_Legal_Name_Last',
	'Ownr2_DOB',
	'Ownr2_SSN'
] as const;
