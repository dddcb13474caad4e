/**
 * Field lists the create transform needs beyond the client's request schema
 * (`$lib/server/onboarding/schemas`, which validates what the sandbox receives).
 */

/** Groups that only ever carried null; their inner fields are not part of the material. */
export const NULL_GROUPS = [
	'CreditCard',
	'RegulatedCheckCard',
	'StandardPassThrough',
	'EnhancedPassThrough',
	'NextDayFunding',
	'WirelessFees',
	'BenefitsPackage',
	'DebitEBT',
	'ProviderPay',
	'ProviderAdvantage',
	'ProviderView',
	'ProviderFund',
	'ECheck',
	'PaymentReceipt'
] as const;

/** Null groups that appear in responses only. */
export const RESPONSE_ONLY_NULL_GROUPS = [
	'CheckCard',
	'InterchangePassThrough',
	'FlatRate',
	'CheckVerification',
	'ProviderPayLoyalty',
	'MerchantSetupFees'
] as const;

/** Second-owner fields that must be filled when `IsSecondOwner` is true. */
export const SECOND_OWNER_REQUIRED = [
	'Ownr2_Legal_Name_First',
	'Ownr2_Legal_Name_Last',
	'Ownr2_DOB',
	'Ownr2_SSN'
] as const;

/** The response's Lease members that are always null (only their names are known). */
export const LEASE_FIELDS = [
	'LeaseID',
	'LeasePayment',
	'LeaseTerm',
	'FirstAndLastPaymentProd',
	'FirstAndLastPayment',
	'FirstMonthlyPaymentProd',
	'FirstMonthlyPayment',
	'LastMonthlyPaymentProd',
	'LastMonthlyPayment',
	'OtherPaymentProd',
	'OtherPayment',
	'PayableTotal',
	'VendorCode',
	'LeaseNumber',
	'LeaseAddress',
	'LeaseCity',
	'LeaseState',
	'LeaseZip'
] as const;
