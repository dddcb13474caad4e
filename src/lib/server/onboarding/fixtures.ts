import { LEASE_FIELDS } from './schemas';
import type {
	AcceptanceLanguage,
	ApplicationCreateRequest,
	ApplicationResponseBody,
	MerchantDecisionRequest,
	MerchantDecisionResponseBody
} from './schemas';

/**
 * Example payloads shaped exactly as the interface document describes them, shared by the
 * schema tests and the sandbox's seed data. Every person and business here is invented.
 */

export const EXAMPLE_OFFICE_ID = 1207;

/** A create request with every group populated (Blue Heron Bakery, owner Dana Whitfield). */
export function exampleCreateRequest(): ApplicationCreateRequest {
	return {
		ApplicationID: null,
		OfficeNo: EXAMPLE_OFFICE_ID,
		RepNo: 31,
		BusinessNames: {
			Legal_Name: 'Blue Heron Bakery LLC',
			Billing_Address: '12 Harbor Street',
			Billing_City: 'Springfield',
			Billing_State: 'IL',
			Billing_Zip: '62701',
			Corp_Phone: '217-555-0142',
			Corp_Fax: null,
			Corp_Email: 'office@blueheronbakery.example',
			Website_Address: 'https://blueheronbakery.example',
			DBA_Name: 'Blue Heron Bakery',
			Physical_Address: '12 Harbor Street',
			Physical_City: 'Springfield',
			Physical_State: 'IL',
			Physical_Zip: '62701',
			DBA_Phone: '217-555-0142',
			DBA_Contact: 'Dana Whitfield',
			DBA_Email: null,
			Mailto: 1,
			Mail_Monthly_Stmnt: true
		},
		Profile: {
			Type_Of_Ownership: 3,
			Fed_Tax_ID: '364001234',
			Goods_Sold: 'Baked goods and coffee',
			Goods_Sold_Pct: 100,
			Visa_MC_Accept: true,
			Most_Recent_Proc: null,
			Terminated_Merch: false,
			Merch_BK: false,
			Merch_BK_Date: null,
			Years_Owned: 6,
			Num_Loc: 1,
			Hours_MonFri: null,
			Hours_SatSun: null,
			Avg_Tkt: 14.5,
			High_Tkt: 220,
			Mnthly_Vol_Avg: 38000,
			Mnthly_Vol_High: 52000,
			Annual_Vol: 456000,
			Bank_Name: 'Prairie State Bank',
			Bank_Contact: 'Lee Ortiz',
			Bank_Phone: '217-555-0199',
			Bank_Acct: '000123456789',
			Bank_Routing: '071000013',
			Bank_Date_Open: '04/15/19',
			Sale_Pct_Swipe: 85,
			Sale_Pct_Imprint: 0,
			Sale_Pct_MOTO: 5,
			Sale_Pct_Internet: 10,
			Sale_Pct_Total: 100,
			Merch_Type: 1,
			Merch_Type_Season: false,
			Merch_Type_Season_Start: null,
			Merch_Type_Season_End: null
		},
		OwnerOfficer: {
			Ownr1_Legal_Name_First: 'Dana',
			Ownr1_Legal_Name_Last: 'Whitfield',
			Ownr1_Title: 'Owner',
			Ownr1_DOB: '3/7/1981',
			Ownr1_SSN: '123456789',
			Ownr1_Phone: '217-555-0143',
			Ownr1_Address: '40 Willow Lane',
			Ownr1_City: 'Springfield',
			Ownr1_State: 'IL',
			Ownr1_ZIP: '62704',
			Ownr1_Email: 'dana@blueheronbakery.example',
			Ownr1_Percent: 100,
			IsSecondOwner: false
		},
		TradeReferences: null,
		SiteSurvey: {
			Merch_Loc: 2,
			Merch_Loc_Text: null,
			MerchOwnLease: 2,
			Merch_Loc_Ownr_Info: null,
			Merch_Referred_By: null,
			Inspect_Cmnts: null,
			Inspect_Name: null,
			Inspect_Date: null,
			Inspect_Rep_Sign: null,
			Inspect_Office: EXAMPLE_OFFICE_ID,
			Inspect_Rep: 31,
			Inspect_Mgr: null
		},
		ConsolidatedBilling: {
			RF_ConsolidatedBilling_Accept: false,
			RF_CB_Qualified_Discount_Rate: 0,
			RF_CB_Trans_Fee: '0.00',
			RF_CB_Mon_Fee: '0.00'
		},
		ChargeCardNetwork: {
			Net_Accept: true,
			Net_Prev_Acct: false,
			Net_Disc_Rate_Prod: true,
			Net_Flat_Fee_Prod: false,
			Net_Retail_Prod: true,
			Net_Quick_Prod: false,
			Net_Services_Prod: false,
			Net_Exst_Acct: null,
			Net_Disc_Rate: 2.29,
			Net_Flat_Fee: null,
			Net_Retail_Trans_Fee: '0.10',
			Net_Quick_Trans_Fee: null,
			Net_Services_Trans_Fee: null,
			Net_Gross: 1,
			Net_Est_Vol: 4000,
			Net_Avg_Tkt: 15,
			Net_Retail_CNP_Dwngrd: '0.50'
		},
		OtherFees: {
			RF_Cards: 1,
			RF_Discount: 1.69,
			RF_Per_Item_Fee: '0.10',
			RF_Access_Fee: null,
			RF_StoreProgram: null,
			RF_Bankcard_Services_Fee: null,
			RF_Mon_Maint_Fee: '5.00',
			RF_Batch_Fee: '0.25',
			RF_Reg_Comp_Fee: null,
			RF_Voice_Auth_Fee: '0.95',
			RF_Return_Draft_Fee: null,
			RF_Non_Bankcard_Trans_Fee: null,
			RF_DDA_DBA_Change_Fee: null,
			RF_Chargeback_Fee: '25.00',
			RF_Retrieval_Fee: '15.00',
			RF_Statement_Fee: '10.00',
			RF_Statement_Fee_Prod: true,
			RF_Online_Statement_Fee: null,
			RF_Online_Statement_Fee_Prod: false,
			RF_Application_Fee: null,
			RF_Application_Fee_Prod: false,
			RF_Annual_Fee: '79.00',
			RF_Annual_Fee_Prod: true,
			RF_Mon_Min: '25.00',
			RF_Mon_Min_Prod: true,
			RF_Paper_Online_Reports_Fee: null,
			RF_Paper_Online_Reports_Fee_Prod: null,
			RF_Online_Reports_Only_Fee: null,
			RF_Online_Reports_Only_Fee_Prod: null,
			RF_Supply_Program_Fee: null,
			RF_Supply_Program_Fee_Prod: null,
			RF_Reprogram_Fee: null,
			RF_Reprogram_Fee_Prod: null,
			RF_App_Rush_Fee: null,
			RF_App_Rush_Fee_Prod: null,
			RF_Manual_Imprinter_Fee: null,
			RF_Manual_Imprinter_Fee_Prod: null,
			RF_PinPad_Encrypt_Fee: null,
			RF_PinPad_Encrypt_Fee_Prod: null,
			RF_Surge_Protector_Fee: null,
			RF_Surge_Protector_Fee_Prod: null
		},
		GatewayMerchants: {
			GM_Accept: true,
			GM_PmntGtwyVTerm_Prod: true,
			GM_PmntGtwyVTerm_Set_Up_Fee: '0.00',
			GM_PmntGtwyVTerm_Mon_Fee: '10.00',
			GM_PmntGtwyVTerm_Trans_Fee: '0.05',
			GM_CustVault_Prod: false,
			GM_CustVault_Set_Up_Fee: '0.00',
			GM_CustVault_Mon_Fee: '0.00',
			GM_CustVault_Trans_Fee: '0.00',
			GM_Mobile_Prod: false,
			GM_Mobile_Mon_Fee: 0,
			GM_Mobile_Trans_Fee: 0,
			GM_Email: 'dana@blueheronbakery.example'
		},
		BillingService: {
			BS_Accept: false,
			BS_Standard_Prod: false,
			BS_5000_Trans_Prod: false,
			BS_Standard_Mon_Fee: '0.00',
			BS_5000_Trans_Mon_Fee: '0.00'
		},
		EquipmentSetupForm: {
			ESF_SiToTrain: true,
			ESF_TimedUpload: false,
			ESF_OtherFeature: false,
			ESF_MultiMerchant: false,
			ESF_HighSpeedConnection: true,
			ESF_ShipTo: 1,
			ESF_ShippingMethod: 2,
			ESF_TerminalApplication: 1,
			ESF_AlternateAddress: null,
			ESF_AlternateCity: null,
			ESF_AlternateState: null,
			ESF_AlternateZip: null,
			ESF_AlternateAttn: null,
			ESF_AlternatePhone: null,
			ESF_ReversePIP: null,
			ESF_StoreForward: null,
			ESF_Prompts: null,
			ESF_Last4: null,
			ESF_TimedUpload_Text: null,
			ESF_OtherFeature_Text: null,
			ESF_MultiMerchantText: null,
			ESF_HighSpeedEmail: null,
			ESF_OrderComments: null,
			AssignedTerminals: [
				{
					ApplicationID: 0,
					AssignedTerminalID: 0,
					AvailableTerminalID: '12',
					DisplayName: 'Countertop terminal T2',
					IsNew: true,
					IsRefurb: false,
					IsPurchase: true,
					IsReprogram: false,
					PaymentMethod: null,
					Price: 299,
					AssignedPeripherals: null,
					AssignedSoftware: {
						AssignedTerminalID: 0,
						AssignedSoftwareID: 0,
						AvailableSoftwareID: 4,
						Description: 'Retail',
						Version: { VersionID: '3', Description: 'v3 EMV' }
					}
				}
			],
			Leases: null,
			LeasePayoffOption: null
		},
		InternetMobileAddendum: {
			IMA_Product: 'Cakes for local pickup',
			IMA_Refund: 'Refunds within 7 days',
			IMA_Carrier: 'None',
			IMA_Advertise: 'Website',
			IMA_Later: false,
			IMA_Later_Text: false,
			IMA_Bill: false,
			IMA_Bill_Text: false,
			IMA_Carrier_NA: true,
			IMA_Signature: false,
			IMA_Exposure: false,
			IMA_Deposit: true,
			IMA_Inventory: 1,
			IMA_ForeignSalesPct: 0,
			IMA_Deposit_Pct: 25,
			IMA_Vendor: null,
			IMA_Vendor_City: null,
			IMA_Vendor_State: null
		},
		CreditCard: null,
		RegulatedCheckCard: null,
		StandardPassThrough: null,
		EnhancedPassThrough: null,
		NextDayFunding: null,
		WirelessFees: null,
		BenefitsPackage: null,
		DebitEBT: null,
		ProviderPay: null,
		ProviderAdvantage: null,
		ProviderView: null,
		ProviderFund: null,
		ECheck: null,
		PaymentReceipt: null
	};
}

/**
 * The service's answer to `exampleCreateRequest()`, with the seven observed differences of the
 * document and the request-to-response name changes (see the comments below).
 */
export function exampleCreateResponse(
	applicationId = 50001,
	assignedTerminalId = 88017
): ApplicationResponseBody {
	const req = exampleCreateRequest();
	// Request-only names come back under their response names.
	const site = omit(req.SiteSurvey, 'Inspect_Mgr');
	const network = omit(req.ChargeCardNetwork, 'Net_Retail_CNP_Dwngrd');
	const esf = omit(req.EquipmentSetupForm, 'Leases');
	return {
		...req,
		ApplicationID: applicationId,
		OfficeNo: String(EXAMPLE_OFFICE_ID), // 1. strings in the response
		SiteSurvey: { ...site, Inspect_Office: String(EXAMPLE_OFFICE_ID), Inspect_Rep_Mgr: null },
		ConsolidatedBilling: {
			...req.ConsolidatedBilling,
			RF_CB_Trans_Fee: 0, // 6. fee strings come back as numbers
			RF_CB_Mon_Fee: 0
		},
		ChargeCardNetwork: {
			...network,
			Net_Retail_Trans_Fee: 0.1,
			Net_Retail_CNP_Downgrade: 0.5,
			Net_Pay_Freq: 1
		},
		OtherFees: null, // 2. null although submitted populated
		BillingService: null,
		GatewayMerchants: {
			...req.GatewayMerchants,
			GM_PmntGtwyVTerm_Set_Up_Fee: 0,
			GM_PmntGtwyVTerm_Mon_Fee: 10,
			GM_PmntGtwyVTerm_Trans_Fee: 0.05,
			GM_CustVault_Set_Up_Fee: 0,
			GM_CustVault_Mon_Fee: 0,
			GM_CustVault_Trans_Fee: 0
		},
		EquipmentSetupForm: {
			...esf,
			ESF_ShippingMethod: 0, // 3. a non-zero code came back 0
			AssignedTerminals: [
				{
					ApplicationID: applicationId,
					AssignedTerminalID: assignedTerminalId, // 7. service-assigned
					AvailableTerminalID: 12,
					DisplayName: 'Countertop terminal T2',
					IsNew: true,
					IsRefurb: false,
					IsPurchase: true,
					IsReprogram: false,
					PaymentMethod: { PaymentMethodID: null, Name: null }, // 5. null members
					Price: 299,
					AssignedPeripherals: [], // 5. empty array
					AssignedSoftware: {
						AssignedTerminalID: assignedTerminalId,
						AssignedSoftwareID: 4, // 4. the submitted AvailableSoftwareID …
						AvailableSoftwareID: null, // … and AvailableSoftwareID null
						Description: 'Retail',
						Version: { VersionID: '3', Description: 'v3 EMV' }
					}
				}
			],
			Lease: {
				...Object.fromEntries(LEASE_FIELDS.map((k) => [k, null])),
				LeaseCompanyID: 0,
				LeasedTerminals: []
			}
		},
		OwnerOfficer: { ...req.OwnerOfficer, ...OWNER2_NULLS },
		AccountUpdater: { AcctUpdater_Accept: null, AcctUpdater_Prod: null, AcctUpdater_Fee: null },
		CheckCard: null,
		InterchangePassThrough: null,
		FlatRate: null,
		CheckVerification: null,
		ProviderPayLoyalty: null,
		MerchantSetupFees: null
	};
}

const OWNER2_NULLS = {
	Ownr2_Legal_Name_First: null,
	Ownr2_Legal_Name_Last: null,
	Ownr2_Title: null,
	Ownr2_DOB: null,
	Ownr2_SSN: null,
	Ownr2_Phone: null,
	Ownr2_Address: null,
	Ownr2_City: null,
	Ownr2_State: null,
	Ownr2_ZIP: null,
	Ownr2_Percent: null,
	Ownr2_Email: null
};

/** A decision as the portal sends it for application 50001. */
export function exampleDecisionRequest(applicationId = 50001): MerchantDecisionRequest {
	return {
		IPAddress: '203.0.113.10',
		IsAccepted: true,
		ApplicationID: applicationId,
		MerchantSSN: '123456789',
		MerchantFirstName: 'Dana',
		MerchantLastName: 'Whitfield',
		MerchantEmail: 'dana@blueheronbakery.example',
		MerchantIPAddress: '198.51.100.23',
		IsIndividualGuarantyAccepted: true,
		AcceptanceLanguage: {
			Accept_TermsAndConditions_Prod: true,
			Accept_PaymentReceipt_Prod: true,
			Accept_IndividualGuaranty_Prod: true,
			Accept_SeasonalAddendum_Prod: false,
			Accept_NextDayFunding_Prod: true
		},
		NotificationEmail: 'dana@blueheronbakery.example'
	};
}

/** The service's answer: the decision with its id, AcceptanceLanguage and NotificationEmail null. */
export function exampleDecisionResponse(
	applicationId = 50001,
	merchantDecisionId = 70001
): MerchantDecisionResponseBody {
	return {
		...omit(exampleDecisionRequest(applicationId), 'IPAddress'),
		MerchantDecisionID: merchantDecisionId,
		AcceptanceLanguage: null,
		NotificationEmail: null,
		DecisionComment: null
	};
}

/** The contract's example acceptance language for office 1207. */
export function exampleAcceptanceLanguage(): AcceptanceLanguage {
	return {
		OfficeID: EXAMPLE_OFFICE_ID,
		Version: '2026-09-01',
		Accept_TermsAndConditions_Prod: true,
		Accept_PaymentReceipt_Prod: true,
		Accept_IndividualGuaranty_Prod: true,
		Accept_SeasonalAddendum_Prod: false,
		Accept_NextDayFunding_Prod: true,
		TermsAndConditions_Text: '<h3>Merchant Processing Agreement</h3><p>These terms…</p>',
		PaymentReceipt_Text: '<p>Receipts are issued…</p>',
		IndividualGuaranty_Text: '<p>The undersigned guarantees…</p>',
		SeasonalAddendum_Text: null,
		NextDayFunding_Text: '<p>Funds settle the next business day…</p>'
	};
}

function omit<T extends object, K extends keyof T>(obj: T, key: K): Omit<T, K> {
	const copy = { ...obj };
	delete copy[key];
	return copy;
}
