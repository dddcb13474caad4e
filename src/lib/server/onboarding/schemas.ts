import * as v from 'valibot';

/**
 * Every shape the Merchant Onboarding Service speaks, in one module: the interface document
 * (shared/seeds/000_…) is the authority; where it says "not shown", the working assumption of
 * shared/design/onboarding-contract.md is used and marked `// [assumed]`, so that the day the
 * real shapes are known this is the one file that changes.
 *
 * Requests are what we build and what the sandbox accepts (fixed types, unknown keys ignored).
 * Responses are tolerant: extra fields pass through (`v.looseObject`), numbers that the document
 * says may arrive as numeric strings are normalised to numbers, and a field the document saw
 * only as null ("?", type unspecified) accepts anything.
 */

// ---------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------

const int = v.pipe(v.number(), v.integer());
const digits = v.pipe(v.string(), v.regex(/^\d+$/, 'Expected digits only'));

/** An integer that may arrive as a numeric string; always a number afterwards. */
const intish = v.union(
	[int, v.pipe(v.string(), v.trim(), v.regex(/^-?\d+$/), v.transform(Number))],
	'Expected an integer or a numeric string'
);

/** A number that may arrive as a numeric string; always a number afterwards. */
const numberish = v.union(
	[
		v.pipe(v.number(), v.finite()),
		v.pipe(v.string(), v.trim(), v.regex(/^-?\d+(\.\d+)?$/), v.transform(Number))
	],
	'Expected a number or a numeric string'
);

/** Fee on input: a decimal string with two places or a number (kept as sent). */
const feeIn = v.union(
	[v.pipe(v.number(), v.finite(), v.minValue(0)), v.pipe(v.string(), v.regex(/^\d+\.\d{2}$/))],
	'Expected a fee: a number or a decimal string with two places'
);
const feeInNullable = v.nullish(feeIn, null);
/** Fee on output: documented as a number, tolerated as a numeric string. */
const feeOut = numberish;
const feeOutNullable = v.nullish(numberish, null);

/** Request side of a field seen only as null: we cannot send what we cannot describe. */
const unshownIn = v.optional(v.null(), null);
/** Response side of a field seen only as null: its type is unspecified, so anything goes. */
const unshownOut = v.optional(v.unknown());

const nullableString = v.nullish(v.string(), null);

/** Many keys of one schema, with the key names kept in the type. */
function fields<const K extends string, S>(keys: readonly K[], schema: S): { [P in K]: S } {
	return Object.fromEntries(keys.map((k) => [k, schema])) as { [P in K]: S };
}

/** A fee and its `_Prod` flag ("the fee is chosen"), as in OtherFees. */
function flaggedFees<const K extends string, F, B>(
	keys: readonly K[],
	fee: F,
	flag: B
): { [P in K]: F } & { [P in K as `${P}_Prod`]: B } {
	return Object.fromEntries(
		keys.flatMap((k) => [
			[k, fee],
			[`${k}_Prod`, flag]
		])
	) as { [P in K]: F } & { [P in K as `${P}_Prod`]: B };
}

// ---------------------------------------------------------------------------------------------
// Application groups
// ---------------------------------------------------------------------------------------------

const businessNamesEntries = {
	...fields(
		[
			'Legal_Name',
			'Billing_Address',
			'Billing_City',
			'Billing_State',
			'Billing_Zip',
			'Corp_Phone',
			'Website_Address',
			'DBA_Name',
			'Physical_Address',
			'Physical_City',
			'Physical_State',
			'Physical_Zip',
			'DBA_Phone',
			'DBA_Contact'
		],
		v.string()
	),
	...fields(['Corp_Fax', 'Corp_Email', 'DBA_Email'], nullableString),
	Mailto: int,
	Mail_Monthly_Stmnt: v.boolean()
};
const BusinessNamesRequest = v.object(businessNamesEntries);
const BusinessNamesResponse = v.looseObject({ ...businessNamesEntries, Mailto: intish });

const profileNumbers = [
	'Goods_Sold_Pct',
	'Avg_Tkt',
	'High_Tkt',
	'Mnthly_Vol_Avg',
	'Mnthly_Vol_High',
	'Annual_Vol',
	'Sale_Pct_Swipe',
	'Sale_Pct_Imprint',
	'Sale_Pct_MOTO',
	'Sale_Pct_Internet',
	'Sale_Pct_Total'
] as const;
const profileUnshown = [
	'Most_Recent_Proc',
	'Merch_BK_Date',
	'Hours_MonFri',
	'Hours_SatSun',
	'Merch_Type_Season_Start',
	'Merch_Type_Season_End'
] as const;
const profileShared = {
	Fed_Tax_ID: v.string(),
	Goods_Sold: v.string(),
	...fields(['Visa_MC_Accept', 'Terminated_Merch', 'Merch_BK', 'Merch_Type_Season'], v.boolean()),
	...fields(['Bank_Name', 'Bank_Contact', 'Bank_Phone', 'Bank_Acct', 'Bank_Routing'], v.string())
};
const ProfileRequest = v.object({
	...profileShared,
	...fields(['Type_Of_Ownership', 'Years_Owned', 'Num_Loc', 'Merch_Type'], int),
	...fields(profileNumbers, v.pipe(v.number(), v.finite())),
	...fields(profileUnshown, unshownIn),
	Bank_Date_Open: v.pipe(v.string(), v.regex(/^\d{2}\/\d{2}\/\d{2}$/, 'Expected MM/DD/YY'))
});
const ProfileResponse = v.looseObject({
	...profileShared,
	...fields(['Type_Of_Ownership', 'Years_Owned', 'Num_Loc', 'Merch_Type'], intish),
	...fields(profileNumbers, numberish),
	...fields(profileUnshown, unshownOut),
	Bank_Date_Open: v.string()
});

const owner1Strings = [
	'Ownr1_Legal_Name_First',
	'Ownr1_Legal_Name_Last',
	'Ownr1_Title',
	'Ownr1_Phone',
	'Ownr1_Address',
	'Ownr1_City',
	'Ownr1_State',
	'Ownr1_ZIP',
	'Ownr1_Email'
] as const;
const owner2Strings = [
	'Ownr2_Legal_Name_First',
	'Ownr2_Legal_Name_Last',
	'Ownr2_Title',
	'Ownr2_DOB',
	'Ownr2_SSN',
	'Ownr2_Phone',
	'Ownr2_Address',
	'Ownr2_City',
	'Ownr2_State',
	'Ownr2_ZIP',
	'Ownr2_Email'
] as const;
const dob = v.pipe(v.string(), v.regex(/^\d{1,2}\/\d{1,2}\/\d{4}$/, 'Expected M/D/YYYY'));
const OwnerOfficerRequest = v.object({
	...fields(owner1Strings, v.string()),
	Ownr1_DOB: dob,
	Ownr1_SSN: digits,
	Ownr1_Percent: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
	IsSecondOwner: v.boolean(),
	// [assumed] The document lists Ownr2_* in responses only, yet a second owner has to be
	// submitted somehow: accepted in a request with the same types as Ownr1_*, null otherwise.
	...fields(owner2Strings, nullableString),
	Ownr2_Percent: v.nullish(v.pipe(v.number(), v.minValue(0), v.maxValue(100)), null)
});
const OwnerOfficerResponse = v.looseObject({
	...fields(owner1Strings, v.string()),
	Ownr1_DOB: v.string(),
	Ownr1_SSN: v.string(),
	Ownr1_Percent: numberish,
	IsSecondOwner: v.boolean(),
	...fields(owner2Strings, nullableString),
	Ownr2_Percent: v.nullish(numberish, null)
});

const siteSurveyUnshown = [
	'Merch_Loc_Text',
	'Merch_Loc_Ownr_Info',
	'Merch_Referred_By',
	'Inspect_Cmnts',
	'Inspect_Name',
	'Inspect_Date',
	'Inspect_Rep_Sign'
] as const;
const SiteSurveyRequest = v.object({
	Merch_Loc: int,
	MerchOwnLease: int,
	...fields(siteSurveyUnshown, unshownIn),
	Inspect_Office: int,
	Inspect_Rep: int,
	Inspect_Mgr: unshownIn
});
const SiteSurveyResponse = v.looseObject({
	Merch_Loc: intish,
	MerchOwnLease: intish,
	...fields(siteSurveyUnshown, unshownOut),
	Inspect_Office: intish,
	Inspect_Rep: intish,
	Inspect_Rep_Mgr: unshownOut
});

const ConsolidatedBillingRequest = v.object({
	RF_ConsolidatedBilling_Accept: v.boolean(),
	RF_CB_Qualified_Discount_Rate: v.pipe(v.number(), v.finite()),
	RF_CB_Trans_Fee: feeIn,
	RF_CB_Mon_Fee: feeIn
});
const ConsolidatedBillingResponse = v.looseObject({
	RF_ConsolidatedBilling_Accept: v.boolean(),
	RF_CB_Qualified_Discount_Rate: numberish,
	RF_CB_Trans_Fee: feeOut,
	RF_CB_Mon_Fee: feeOut
});

const networkFlags = [
	'Net_Accept',
	'Net_Prev_Acct',
	'Net_Disc_Rate_Prod',
	'Net_Flat_Fee_Prod',
	'Net_Retail_Prod',
	'Net_Quick_Prod',
	'Net_Services_Prod'
] as const;
const networkFees = [
	'Net_Flat_Fee',
	'Net_Retail_Trans_Fee',
	'Net_Quick_Trans_Fee',
	'Net_Services_Trans_Fee'
] as const;
const networkNumbers = ['Net_Disc_Rate', 'Net_Est_Vol', 'Net_Avg_Tkt'] as const;
const ChargeCardNetworkRequest = v.object({
	...fields(networkFlags, v.boolean()),
	Net_Exst_Acct: unshownIn,
	...fields(networkFees, feeInNullable),
	...fields(networkNumbers, v.nullish(v.pipe(v.number(), v.finite()), null)),
	Net_Gross: int,
	// [assumed] The document names this field but not its type; it is taken to be a fee like
	// its neighbours.
	Net_Retail_CNP_Dwngrd: feeInNullable
});
const ChargeCardNetworkResponse = v.looseObject({
	...fields(networkFlags, v.boolean()),
	Net_Exst_Acct: unshownOut,
	...fields(networkFees, feeOutNullable),
	...fields(networkNumbers, v.nullish(numberish, null)),
	Net_Gross: intish,
	// [assumed] type as in the request, under its response name.
	Net_Retail_CNP_Downgrade: feeOutNullable,
	Net_Pay_Freq: intish
});

const otherFeesPlain = [
	'RF_Per_Item_Fee',
	'RF_Access_Fee',
	'RF_StoreProgram',
	'RF_Bankcard_Services_Fee',
	'RF_Mon_Maint_Fee',
	'RF_Batch_Fee',
	'RF_Reg_Comp_Fee',
	'RF_Voice_Auth_Fee',
	'RF_Return_Draft_Fee',
	'RF_Non_Bankcard_Trans_Fee',
	'RF_DDA_DBA_Change_Fee',
	'RF_Chargeback_Fee',
	'RF_Retrieval_Fee'
] as const;
const otherFeesFlagged = [
	'RF_Statement_Fee',
	'RF_Online_Statement_Fee',
	'RF_Application_Fee',
	'RF_Annual_Fee',
	'RF_Mon_Min',
	'RF_Paper_Online_Reports_Fee',
	'RF_Online_Reports_Only_Fee',
	'RF_Supply_Program_Fee',
	'RF_Reprogram_Fee',
	'RF_App_Rush_Fee',
	'RF_Manual_Imprinter_Fee',
	'RF_PinPad_Encrypt_Fee',
	'RF_Surge_Protector_Fee'
] as const;
const nullableFlag = v.nullish(v.boolean(), null);
const OtherFeesRequest = v.object({
	RF_Cards: int,
	RF_Discount: v.pipe(v.number(), v.finite()),
	...fields(otherFeesPlain, feeInNullable),
	...flaggedFees(otherFeesFlagged, feeInNullable, nullableFlag)
});
const OtherFeesResponse = v.looseObject({
	RF_Cards: intish,
	RF_Discount: numberish,
	...fields(otherFeesPlain, feeOutNullable),
	...flaggedFees(otherFeesFlagged, feeOutNullable, nullableFlag)
});

const gatewayFlags = [
	'GM_Accept',
	'GM_PmntGtwyVTerm_Prod',
	'GM_CustVault_Prod',
	'GM_Mobile_Prod'
] as const;
const gatewayFees = [
	'GM_PmntGtwyVTerm_Set_Up_Fee',
	'GM_PmntGtwyVTerm_Mon_Fee',
	'GM_PmntGtwyVTerm_Trans_Fee',
	'GM_CustVault_Set_Up_Fee',
	'GM_CustVault_Mon_Fee',
	'GM_CustVault_Trans_Fee',
	'GM_Mobile_Mon_Fee',
	'GM_Mobile_Trans_Fee'
] as const;
const GatewayMerchantsRequest = v.object({
	...fields(gatewayFlags, v.boolean()),
	...fields(gatewayFees, feeIn),
	GM_Email: v.string()
});
const GatewayMerchantsResponse = v.looseObject({
	...fields(gatewayFlags, v.boolean()),
	...fields(gatewayFees, feeOut),
	GM_Email: v.string()
});

const billingFlags = ['BS_Accept', 'BS_Standard_Prod', 'BS_5000_Trans_Prod'] as const;
const billingFees = ['BS_Standard_Mon_Fee', 'BS_5000_Trans_Mon_Fee'] as const;
const BillingServiceRequest = v.object({
	...fields(billingFlags, v.boolean()),
	...fields(billingFees, feeIn)
});
const BillingServiceResponse = v.looseObject({
	...fields(billingFlags, v.boolean()),
	...fields(billingFees, feeOut)
});

const AccountUpdaterResponse = v.looseObject(
	fields(['AcctUpdater_Accept', 'AcctUpdater_Prod', 'AcctUpdater_Fee'], unshownOut)
);

// ---------------------------------------------------------------------------------------------
// Equipment
// ---------------------------------------------------------------------------------------------

const VersionRequest = v.object({ VersionID: digits, Description: v.string() });
const VersionResponse = v.looseObject({
	VersionID: v.union([digits, v.pipe(int, v.transform(String))], 'Expected a numeric string'),
	Description: v.string()
});

const AssignedSoftwareRequest = v.object({
	AssignedTerminalID: int,
	AssignedSoftwareID: int,
	AvailableSoftwareID: v.nullish(int, null),
	Description: v.string(),
	Version: v.nullish(VersionRequest, null)
});
const AssignedSoftwareResponse = v.looseObject({
	AssignedTerminalID: intish,
	AssignedSoftwareID: intish,
	AvailableSoftwareID: v.nullish(intish, null),
	Description: v.string(),
	Version: v.nullish(VersionResponse, null)
});

const terminalFlags = ['IsNew', 'IsRefurb', 'IsPurchase', 'IsReprogram'] as const;
const AssignedTerminalRequest = v.object({
	// A terminal of a new application has no application yet: 0 is what such a client sends.
	ApplicationID: int,
	AssignedTerminalID: intish,
	AvailableTerminalID: intish,
	DisplayName: v.string(),
	...fields(terminalFlags, v.boolean()),
	PaymentMethod: v.nullish(
		v.object({
			PaymentMethodID: v.nullish(int, null),
			Name: nullableString
		}),
		null
	),
	Price: v.pipe(v.number(), v.finite()),
	AssignedPeripherals: v.nullish(v.array(v.unknown()), null),
	AssignedSoftware: AssignedSoftwareRequest
});
const AssignedTerminalResponse = v.looseObject({
	ApplicationID: intish,
	AssignedTerminalID: intish,
	AvailableTerminalID: intish,
	DisplayName: v.string(),
	...fields(terminalFlags, v.boolean()),
	PaymentMethod: v.nullish(
		v.looseObject({
			PaymentMethodID: v.nullish(intish, null),
			Name: nullableString
		}),
		null
	),
	Price: numberish,
	AssignedPeripherals: v.nullish(v.array(v.unknown()), null),
	AssignedSoftware: AssignedSoftwareResponse
});

/** The response Lease members, always null: only their names are known. */
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
const LeaseResponse = v.looseObject({
	...fields(LEASE_FIELDS, unshownOut),
	LeaseCompanyID: intish,
	LeasedTerminals: v.array(v.unknown())
});

const lpoKeys = [
	'LPO_LeaseNum',
	'LPO_Quote',
	'LPO_Date',
	'LPO_MonPmt',
	'LPO_Company',
	'LPO_Phone'
] as const;
const LeasePayoffOptionRequest = v.object(fields(lpoKeys, unshownIn));
const LeasePayoffOptionResponse = v.looseObject(fields(lpoKeys, unshownOut));

const esfFlags = [
	'ESF_SiToTrain',
	'ESF_TimedUpload',
	'ESF_OtherFeature',
	'ESF_MultiMerchant',
	'ESF_HighSpeedConnection'
] as const;
const esfCodes = ['ESF_ShipTo', 'ESF_ShippingMethod', 'ESF_TerminalApplication'] as const;
const esfAlternate = [
	'ESF_AlternateAddress',
	'ESF_AlternateCity',
	'ESF_AlternateState',
	'ESF_AlternateZip',
	'ESF_AlternateAttn',
	'ESF_AlternatePhone'
] as const;
const esfUnshown = [
	'ESF_ReversePIP',
	'ESF_StoreForward',
	'ESF_Prompts',
	'ESF_Last4',
	'ESF_TimedUpload_Text',
	'ESF_OtherFeature_Text',
	'ESF_MultiMerchantText',
	'ESF_HighSpeedEmail',
	'ESF_OrderComments'
] as const;
const EquipmentSetupFormRequest = v.object({
	...fields(esfFlags, v.boolean()),
	...fields(esfCodes, int),
	...fields(esfAlternate, nullableString),
	...fields(esfUnshown, unshownIn),
	AssignedTerminals: v.array(AssignedTerminalRequest),
	Leases: unshownIn,
	LeasePayoffOption: v.nullish(LeasePayoffOptionRequest, null)
});
const EquipmentSetupFormResponse = v.looseObject({
	...fields(esfFlags, v.boolean()),
	...fields(esfCodes, intish),
	...fields(esfAlternate, nullableString),
	...fields(esfUnshown, unshownOut),
	AssignedTerminals: v.array(AssignedTerminalResponse),
	Lease: LeaseResponse,
	LeasePayoffOption: v.nullish(LeasePayoffOptionResponse, null)
});

// ---------------------------------------------------------------------------------------------
// Internet/mobile addendum
// ---------------------------------------------------------------------------------------------

const imaShared = {
	...fields(['IMA_Product', 'IMA_Refund', 'IMA_Carrier', 'IMA_Advertise'], v.string()),
	// IMA_Later_Text and IMA_Bill_Text are booleans in the document, despite their names.
	...fields(
		[
			'IMA_Later',
			'IMA_Later_Text',
			'IMA_Bill',
			'IMA_Bill_Text',
			'IMA_Carrier_NA',
			'IMA_Signature',
			'IMA_Exposure',
			'IMA_Deposit'
		],
		v.boolean()
	)
};
const imaUnshown = ['IMA_Vendor', 'IMA_Vendor_City', 'IMA_Vendor_State'] as const;
const InternetMobileAddendumRequest = v.object({
	...imaShared,
	IMA_Inventory: int,
	...fields(['IMA_ForeignSalesPct', 'IMA_Deposit_Pct'], v.pipe(v.number(), v.finite())),
	...fields(imaUnshown, unshownIn)
});
const InternetMobileAddendumResponse = v.looseObject({
	...imaShared,
	IMA_Inventory: intish,
	...fields(['IMA_ForeignSalesPct', 'IMA_Deposit_Pct'], numberish),
	...fields(imaUnshown, unshownOut)
});

// ---------------------------------------------------------------------------------------------
// Application
// ---------------------------------------------------------------------------------------------

/** Groups that carried only null in both directions. */
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
/** Groups that appear, null, in responses only. */
export const RESPONSE_ONLY_NULL_GROUPS = [
	'CheckCard',
	'InterchangePassThrough',
	'FlatRate',
	'CheckVerification',
	'ProviderPayLoyalty',
	'MerchantSetupFees'
] as const;

/** The body of POST application: ApplicationID is null, the service assigns it. */
export const ApplicationCreateRequestSchema = v.object({
	ApplicationID: v.null(),
	OfficeNo: int,
	RepNo: int,
	BusinessNames: BusinessNamesRequest,
	Profile: ProfileRequest,
	OwnerOfficer: OwnerOfficerRequest,
	TradeReferences: unshownIn,
	SiteSurvey: SiteSurveyRequest,
	ConsolidatedBilling: ConsolidatedBillingRequest,
	ChargeCardNetwork: ChargeCardNetworkRequest,
	OtherFees: v.nullable(OtherFeesRequest),
	GatewayMerchants: GatewayMerchantsRequest,
	BillingService: v.nullable(BillingServiceRequest),
	EquipmentSetupForm: EquipmentSetupFormRequest,
	InternetMobileAddendum: InternetMobileAddendumRequest,
	...fields(NULL_GROUPS, unshownIn)
});

/** An Application as the service returns it (create response). */
export const ApplicationResponseSchema = v.looseObject({
	ApplicationID: intish,
	OfficeNo: intish,
	RepNo: intish,
	BusinessNames: BusinessNamesResponse,
	Profile: ProfileResponse,
	OwnerOfficer: OwnerOfficerResponse,
	TradeReferences: unshownOut,
	SiteSurvey: SiteSurveyResponse,
	ConsolidatedBilling: ConsolidatedBillingResponse,
	ChargeCardNetwork: ChargeCardNetworkResponse,
	OtherFees: v.nullish(OtherFeesResponse, null),
	GatewayMerchants: GatewayMerchantsResponse,
	BillingService: v.nullish(BillingServiceResponse, null),
	EquipmentSetupForm: EquipmentSetupFormResponse,
	InternetMobileAddendum: InternetMobileAddendumResponse,
	AccountUpdater: AccountUpdaterResponse,
	...fields(NULL_GROUPS, unshownOut),
	...fields(RESPONSE_ONLY_NULL_GROUPS, unshownOut)
});

export type ApplicationCreateRequest = v.InferInput<typeof ApplicationCreateRequestSchema>;
export type ApplicationCreateRequestParsed = v.InferOutput<typeof ApplicationCreateRequestSchema>;
export type Application = v.InferOutput<typeof ApplicationResponseSchema>;
/** An Application response as it travels on the wire (what the sandbox emits). */
export type ApplicationResponseBody = v.InferInput<typeof ApplicationResponseSchema>;
export type AssignedTerminal = v.InferOutput<typeof AssignedTerminalResponse>;

// ---------------------------------------------------------------------------------------------
// Acceptance language and the merchant decision
// ---------------------------------------------------------------------------------------------

export type AcceptanceSectionKey =
	| 'TermsAndConditions'
	| 'PaymentReceipt'
	| 'IndividualGuaranty'
	| 'SeasonalAddendum'
	| 'NextDayFunding';

/** The five sections of the signature page, in the order the document lists their flags. */
export const ACCEPTANCE_SECTIONS = [
	section('TermsAndConditions', 'Terms and Conditions'),
	section('PaymentReceipt', 'Payment Receipt'),
	section('IndividualGuaranty', 'Individual Guaranty'),
	section('SeasonalAddendum', 'Seasonal Addendum'),
	section('NextDayFunding', 'Next Day Funding')
] as const;

function section<const K extends AcceptanceSectionKey>(key: K, title: string) {
	return { key, flag: `Accept_${key}_Prod` as const, textField: `${key}_Text` as const, title };
}

export type AcceptanceSection = (typeof ACCEPTANCE_SECTIONS)[number];
export type AcceptanceFlag = AcceptanceSection['flag'];
export type AcceptanceTextField = AcceptanceSection['textField'];

const acceptanceFlags = ACCEPTANCE_SECTIONS.map((s) => s.flag);
const acceptanceTexts = ACCEPTANCE_SECTIONS.map((s) => s.textField);

/** GET acceptancelanguage. A true flag: the office presents that section; its `_Text` is HTML. */
// [assumed] everything beyond the five flags: OfficeID, Version (may be absent), the _Text fields.
export const AcceptanceLanguageSchema = v.looseObject({
	OfficeID: intish,
	Version: v.optional(v.string()),
	...fields(acceptanceFlags, v.boolean()),
	// Untrusted HTML: sanitize before it reaches a page.
	...fields(acceptanceTexts, nullableString)
});
export type AcceptanceLanguage = v.InferOutput<typeof AcceptanceLanguageSchema>;

/** The five flags as sent in a decision: what the merchant acknowledged. */
export const DecisionAcceptanceSchema = v.strictObject(fields(acceptanceFlags, v.boolean()));
export type DecisionAcceptance = v.InferOutput<typeof DecisionAcceptanceSchema>;

const nonEmpty = v.pipe(v.string(), v.trim(), v.nonEmpty());
/** Stricter than the document's "string": an address the service would mail must be one. */
const email = v.pipe(v.string(), v.trim(), v.email());

/** The body of POST merchantdecision/{applicationid}: exactly the document's fields. */
export const MerchantDecisionRequestSchema = v.strictObject({
	IPAddress: nonEmpty,
	IsAccepted: v.boolean(),
	ApplicationID: int,
	MerchantSSN: digits,
	MerchantFirstName: nonEmpty,
	MerchantLastName: nonEmpty,
	MerchantEmail: email,
	MerchantIPAddress: nonEmpty,
	IsIndividualGuarantyAccepted: v.boolean(),
	AcceptanceLanguage: DecisionAcceptanceSchema,
	NotificationEmail: email
});
export type MerchantDecisionRequest = v.InferInput<typeof MerchantDecisionRequestSchema>;
export type MerchantDecisionResponseBody = v.InferInput<typeof MerchantDecisionResponseSchema>;

/**
 * A recorded decision. The service echoes the merchant's SSN; it is dropped here so that it
 * cannot travel further into the portal (logs, database, page data).
 */
export const MerchantDecisionResponseSchema = v.pipe(
	v.looseObject({
		MerchantDecisionID: intish,
		ApplicationID: intish,
		IsAccepted: v.boolean(),
		MerchantSSN: v.optional(v.unknown()),
		MerchantFirstName: v.string(),
		MerchantLastName: v.string(),
		MerchantEmail: v.string(),
		MerchantIPAddress: v.string(),
		IsIndividualGuarantyAccepted: v.boolean(),
		AcceptanceLanguage: v.nullish(
			v.looseObject(fields(acceptanceFlags, v.optional(v.boolean()))),
			null
		),
		NotificationEmail: nullableString,
		DecisionComment: nullableString
	}),
	v.transform((decision) => {
		const safe = { ...decision };
		delete safe.MerchantSSN;
		return safe;
	})
);
export type MerchantDecision = v.InferOutput<typeof MerchantDecisionResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Identity check
// ---------------------------------------------------------------------------------------------

/** A question-set id: opaque text, tolerated as a number. */
const questionSetId = v.union(
	[v.pipe(v.string(), v.nonEmpty()), v.pipe(int, v.transform(String))],
	'Expected a question set id'
);

// [assumed] the whole IdentityQuestionSet shape (contract: IdentityQuestionSet).
export const IdentityQuestionSetSchema = v.looseObject({
	ApplicationID: intish,
	QuestionSetID: questionSetId,
	TimeLimitSeconds: v.nullish(intish),
	Questions: v.array(
		v.looseObject({
			QuestionID: intish,
			Prompt: v.string(),
			Choices: v.array(v.looseObject({ ChoiceID: intish, Text: v.string() }))
		})
	)
});
export type IdentityQuestionSet = v.InferOutput<typeof IdentityQuestionSetSchema>;
export type IdentityQuestion = IdentityQuestionSet['Questions'][number];

// [assumed] the whole IdentityAnswerSet shape (contract: IdentityAnswerSet).
export const IdentityAnswerSetSchema = v.object({
	ApplicationID: int,
	QuestionSetID: v.pipe(v.string(), v.nonEmpty()),
	// Ids as the question set gave them: numbers, or numeric strings the client turns to numbers.
	Answers: v.pipe(
		v.array(v.object({ QuestionID: intish, ChoiceID: intish })),
		v.minLength(1, 'Expected at least one answer')
	)
});
export type IdentityAnswerSet = v.InferInput<typeof IdentityAnswerSetSchema>;

// ---------------------------------------------------------------------------------------------
// Lists and reference data
// ---------------------------------------------------------------------------------------------

// [assumed] the whole ApplicationListItem shape (contract: ApplicationListItem).
export const ApplicationListItemSchema = v.looseObject({
	ApplicationID: intish,
	OfficeNo: intish,
	RepNo: intish,
	DBA_Name: v.string(),
	Legal_Name: v.string(),
	Ownr1_Legal_Name_First: v.string(),
	Ownr1_Legal_Name_Last: v.string(),
	Ownr1_Email: v.string(),
	CreatedDate: v.string(),
	Status: v.string()
});
export const ApplicationListSchema = v.array(ApplicationListItemSchema);
export type ApplicationListItem = v.InferOutput<typeof ApplicationListItemSchema>;

// [assumed] Status values: "Pending Signature" while the merchant may sign, "Signed" or
// "Declined" once a decision is on record (the contract shows only the first).
const DECIDED_STATUSES = new Set(['signed', 'declined']);

/** Whether the service already holds a merchant decision for the application. */
export function isDecided(item: Pick<ApplicationListItem, 'Status'>): boolean {
	return DECIDED_STATUSES.has(item.Status.trim().toLowerCase());
}

// [assumed] the whole AvailableEquipment shape (contract: AvailableEquipment).
export const AvailableEquipmentSchema = v.looseObject({
	AvailableTerminalID: intish,
	DisplayName: v.string(),
	Price: numberish,
	Software: v.array(
		v.looseObject({
			AvailableSoftwareID: intish,
			Description: v.string(),
			Versions: v.array(VersionResponse)
		})
	)
});
export const AvailableEquipmentListSchema = v.array(AvailableEquipmentSchema);
export type AvailableEquipment = v.InferOutput<typeof AvailableEquipmentSchema>;

/** Identified by PaymentMethodID and Name; other fields are not shown and pass through. */
export const PaymentMethodSchema = v.looseObject({ PaymentMethodID: intish, Name: v.string() });
export const PaymentMethodListSchema = v.array(PaymentMethodSchema);
export type PaymentMethod = v.InferOutput<typeof PaymentMethodSchema>;

// [assumed] the whole SalesTaxRate shape; Rate is a percent (contract: SalesTaxRate).
export const SalesTaxRateSchema = v.looseObject({
	City: v.string(),
	State: v.string(),
	Zip: v.string(),
	Rate: numberish
});
export type SalesTaxRate = v.InferOutput<typeof SalesTaxRateSchema>;

// ---------------------------------------------------------------------------------------------
// Status-code answers and error bodies
// ---------------------------------------------------------------------------------------------

// [assumed] what the identity answer's non-2xx status codes mean (contract: IdentityAnswerSet);
// 200 and 204 mean verified, any other status is an error.
export const ANSWER_SET_REFUSALS = { 422: 'failed', 410: 'expired', 423: 'locked' } as const;
export type AnswerSetRefusal = (typeof ANSWER_SET_REFUSALS)[keyof typeof ANSWER_SET_REFUSALS];

// [assumed] an error body in the ASP.NET Web API style (contract: Errors): `{ Message }` or
// `{ Message, ModelState }`; anything else is plain text or empty.
export const ErrorBodySchema = v.looseObject({
	Message: v.string(),
	ModelState: v.optional(v.record(v.string(), v.unknown()))
});
