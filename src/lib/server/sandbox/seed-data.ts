import type { SandboxScenario } from '../db/schema';
import { exampleCreateRequest } from '../onboarding/fixtures';
import { NULL_GROUPS } from '../onboarding/schemas';

/**
 * The demo applications of office 1207, in the service's request (create) form: seeding runs
 * them through the same path as a create, so they look exactly like created ones. All people,
 * businesses, banks and numbers are invented; the SSNs other than the client fixture's (50001)
 * are in the 900–999 range, which is never issued.
 */

export const DEMO_OFFICE = 1207;

type Obj = Record<string, unknown>;

export interface DemoApplication {
	id: number;
	scenario: SandboxScenario;
	/** Days before seeding that the application was "created" (for CreatedDate). */
	ageDays: number;
	request: Obj;
}

interface Merchant {
	rep: number;
	legal: string;
	dba: string;
	address: string;
	city: string;
	state: string;
	zip: string;
	phone: string;
	email: string;
	website: string;
	taxId: string;
	goods: string;
	ownership: number;
	yearsOwned: number;
	avgTicket: number;
	monthly: number;
	bank: {
		name: string;
		contact: string;
		phone: string;
		acct: string;
		routing: string;
		opened: string;
	};
	owner1: Owner;
	owner2?: Owner;
	season?: { start: string; end: string };
	terminals: {
		id: number;
		name: string;
		price: number;
		software: number;
		softwareName: string;
		version: string;
		versionName: string;
	}[];
	internet: number;
}

interface Owner {
	first: string;
	last: string;
	title: string;
	dob: string;
	ssn: string;
	phone: string;
	address: string;
	city: string;
	state: string;
	zip: string;
	email: string;
	percent: number;
}

const owner = (n: 1 | 2, o: Owner | undefined): Obj => ({
	[`Ownr${n}_Legal_Name_First`]: o?.first ?? null,
	[`Ownr${n}_Legal_Name_Last`]: o?.last ?? null,
	[`Ownr${n}_Title`]: o?.title ?? null,
	[`Ownr${n}_DOB`]: o?.dob ?? null,
	[`Ownr${n}_SSN`]: o?.ssn ?? null,
	[`Ownr${n}_Phone`]: o?.phone ?? null,
	[`Ownr${n}_Address`]: o?.address ?? null,
	[`Ownr${n}_City`]: o?.city ?? null,
	[`Ownr${n}_State`]: o?.state ?? null,
	[`Ownr${n}_ZIP`]: o?.zip ?? null,
	[`Ownr${n}_Email`]: o?.email ?? null,
	[`Ownr${n}_Percent`]: o?.percent ?? null
});

/** A complete create request for a merchant: every group of the document, filled plausibly. */
function application(m: Merchant): Obj {
	const swipe = 100 - m.internet - 5;
	return {
		ApplicationID: null,
		OfficeNo: DEMO_OFFICE,
		RepNo: m.rep,
		BusinessNames: {
			Legal_Name: m.legal,
			Billing_Address: m.address,
			Billing_City: m.city,
			Billing_State: m.state,
			Billing_Zip: m.zip,
			Corp_Phone: m.phone,
			Corp_Fax: null,
			Corp_Email: m.email,
			Website_Address: m.website,
			DBA_Name: m.dba,
			Physical_Address: m.address,
			Physical_City: m.city,
			Physical_State: m.state,
			Physical_Zip: m.zip,
			DBA_Phone: m.phone,
			DBA_Contact: `${m.owner1.first} ${m.owner1.last}`,
			DBA_Email: m.email,
			Mailto: 1,
			Mail_Monthly_Stmnt: true
		},
		Profile: {
			Type_Of_Ownership: m.ownership,
			Fed_Tax_ID: m.taxId,
			Goods_Sold: m.goods,
			Goods_Sold_Pct: 100,
			Visa_MC_Accept: true,
			Most_Recent_Proc: null,
			Terminated_Merch: false,
			Merch_BK: false,
			Merch_BK_Date: null,
			Years_Owned: m.yearsOwned,
			Num_Loc: 1,
			Hours_MonFri: null,
			Hours_SatSun: null,
			Avg_Tkt: m.avgTicket,
			High_Tkt: Math.round(m.avgTicket * 12),
			Mnthly_Vol_Avg: m.monthly,
			Mnthly_Vol_High: Math.round(m.monthly * 1.6),
			Annual_Vol: m.monthly * 12,
			Bank_Name: m.bank.name,
			Bank_Contact: m.bank.contact,
			Bank_Phone: m.bank.phone,
			Bank_Acct: m.bank.acct,
			Bank_Routing: m.bank.routing,
			Bank_Date_Open: m.bank.opened,
			Sale_Pct_Swipe: swipe,
			Sale_Pct_Imprint: 0,
			Sale_Pct_MOTO: 5,
			Sale_Pct_Internet: m.internet,
			Sale_Pct_Total: 100,
			Merch_Type: 1,
			Merch_Type_Season: m.season !== undefined,
			Merch_Type_Season_Start: m.season?.start ?? null,
			Merch_Type_Season_End: m.season?.end ?? null
		},
		OwnerOfficer: {
			...owner(1, m.owner1),
			IsSecondOwner: m.owner2 !== undefined,
			...owner(2, m.owner2)
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
			Inspect_Office: DEMO_OFFICE,
			Inspect_Rep: m.rep,
			Inspect_Mgr: null
		},
		ConsolidatedBilling: {
			RF_ConsolidatedBilling_Accept: true,
			RF_CB_Qualified_Discount_Rate: 1.69,
			RF_CB_Trans_Fee: '0.10',
			RF_CB_Mon_Fee: '9.95'
		},
		ChargeCardNetwork: {
			Net_Accept: true,
			Net_Prev_Acct: false,
			Net_Exst_Acct: null,
			Net_Disc_Rate_Prod: true,
			Net_Disc_Rate: 2.35,
			Net_Flat_Fee_Prod: false,
			Net_Flat_Fee: null,
			Net_Retail_Prod: true,
			Net_Retail_Trans_Fee: '0.15',
			Net_Retail_CNP_Dwngrd: '0.50',
			Net_Quick_Prod: false,
			Net_Quick_Trans_Fee: null,
			Net_Services_Prod: false,
			Net_Services_Trans_Fee: null,
			Net_Gross: 0,
			Net_Est_Vol: Math.round(m.monthly * 0.08),
			Net_Avg_Tkt: m.avgTicket
		},
		OtherFees: {
			RF_Cards: 1,
			RF_Discount: 1.69,
			RF_Per_Item_Fee: '0.10',
			RF_Access_Fee: '0.05',
			RF_StoreProgram: null,
			RF_Bankcard_Services_Fee: '0.00',
			RF_Mon_Maint_Fee: '5.00',
			RF_Batch_Fee: '0.25',
			RF_Reg_Comp_Fee: '6.95',
			RF_Voice_Auth_Fee: '0.95',
			RF_Return_Draft_Fee: '25.00',
			RF_Non_Bankcard_Trans_Fee: '0.10',
			RF_DDA_DBA_Change_Fee: '15.00',
			RF_Chargeback_Fee: '25.00',
			RF_Retrieval_Fee: '15.00',
			RF_Statement_Fee_Prod: true,
			RF_Statement_Fee: '9.95',
			RF_Online_Statement_Fee_Prod: false,
			RF_Online_Statement_Fee: null,
			RF_Application_Fee_Prod: false,
			RF_Application_Fee: null,
			RF_Annual_Fee_Prod: true,
			RF_Annual_Fee: '79.00',
			RF_Mon_Min_Prod: true,
			RF_Mon_Min: '25.00',
			RF_Paper_Online_Reports_Fee_Prod: false,
			RF_Paper_Online_Reports_Fee: null,
			RF_Online_Reports_Only_Fee_Prod: true,
			RF_Online_Reports_Only_Fee: '0.00',
			RF_Supply_Program_Fee_Prod: false,
			RF_Supply_Program_Fee: null,
			RF_Reprogram_Fee_Prod: false,
			RF_Reprogram_Fee: null,
			RF_App_Rush_Fee_Prod: false,
			RF_App_Rush_Fee: null,
			RF_Manual_Imprinter_Fee_Prod: false,
			RF_Manual_Imprinter_Fee: null,
			RF_PinPad_Encrypt_Fee_Prod: m.terminals.some((t) => t.id === 21),
			RF_PinPad_Encrypt_Fee: m.terminals.some((t) => t.id === 21) ? '2.50' : null,
			RF_Surge_Protector_Fee_Prod: false,
			RF_Surge_Protector_Fee: null
		},
		GatewayMerchants: {
			GM_Accept: m.internet > 0,
			GM_PmntGtwyVTerm_Prod: m.internet > 0,
			GM_PmntGtwyVTerm_Set_Up_Fee: '0.00',
			GM_PmntGtwyVTerm_Mon_Fee: m.internet > 0 ? '15.00' : '0.00',
			GM_PmntGtwyVTerm_Trans_Fee: m.internet > 0 ? '0.05' : '0.00',
			GM_CustVault_Prod: false,
			GM_CustVault_Set_Up_Fee: '0.00',
			GM_CustVault_Mon_Fee: '0.00',
			GM_CustVault_Trans_Fee: '0.00',
			GM_Mobile_Prod: false,
			GM_Mobile_Mon_Fee: 0,
			GM_Mobile_Trans_Fee: 0,
			GM_Email: m.internet > 0 ? m.email : ''
		},
		BillingService: {
			BS_Accept: false,
			BS_Standard_Prod: false,
			BS_Standard_Mon_Fee: '0.00',
			BS_5000_Trans_Prod: false,
			BS_5000_Trans_Mon_Fee: '0.00'
		},
		EquipmentSetupForm: {
			ESF_SiToTrain: true,
			ESF_TimedUpload: false,
			ESF_TimedUpload_Text: null,
			ESF_OtherFeature: false,
			ESF_OtherFeature_Text: null,
			ESF_MultiMerchant: false,
			ESF_MultiMerchantText: null,
			ESF_HighSpeedConnection: true,
			ESF_HighSpeedEmail: null,
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
			ESF_OrderComments: null,
			AssignedTerminals: m.terminals.map((t) => ({
				ApplicationID: 0,
				AssignedTerminalID: '0',
				AvailableTerminalID: String(t.id),
				DisplayName: t.name,
				IsNew: true,
				IsRefurb: false,
				IsPurchase: true,
				IsReprogram: false,
				PaymentMethod: { PaymentMethodID: 1, Name: 'Purchase' },
				Price: t.price,
				AssignedPeripherals: null,
				AssignedSoftware: {
					AssignedTerminalID: 0,
					AssignedSoftwareID: 0,
					AvailableSoftwareID: t.software,
					Description: t.softwareName,
					Version: { VersionID: t.version, Description: t.versionName }
				}
			})),
			Leases: null,
			LeasePayoffOption: null
		},
		InternetMobileAddendum: {
			IMA_Product: m.internet > 0 ? m.goods : '',
			IMA_Refund: m.internet > 0 ? 'Full refund within 30 days with receipt' : '',
			IMA_Later: false,
			IMA_Later_Text: false,
			IMA_Bill: false,
			IMA_Bill_Text: false,
			IMA_Carrier: m.internet > 0 ? 'USPS' : '',
			IMA_Carrier_NA: m.internet === 0,
			IMA_Advertise: m.internet > 0 ? 'Website and social media' : '',
			IMA_Signature: false,
			IMA_Exposure: false,
			IMA_Inventory: 1,
			IMA_ForeignSalesPct: 0,
			IMA_Deposit: false,
			IMA_Deposit_Pct: 0,
			IMA_Vendor: null,
			IMA_Vendor_City: null,
			IMA_Vendor_State: null
		},
		...Object.fromEntries(NULL_GROUPS.map((g) => [g, null]))
	};
}

const T2 = {
	id: 12,
	name: 'Countertop terminal T2',
	price: 299,
	software: 4,
	softwareName: 'Retail',
	version: '3',
	versionName: 'v3 EMV'
};
const W5 = {
	id: 14,
	name: 'Wireless terminal W5',
	price: 449,
	software: 6,
	softwareName: 'Mobile service',
	version: '2',
	versionName: 'v2 LTE'
};
const P400 = {
	id: 21,
	name: 'PIN pad P400',
	price: 129,
	software: 8,
	softwareName: 'PIN debit',
	version: '1',
	versionName: 'v1 encrypting'
};

export const DEMO_APPLICATIONS: DemoApplication[] = [
	{
		// The client's example payload, so the client's fixtures and the sandbox agree.
		id: 50001,
		scenario: 'ordinary',
		ageDays: 3,
		request: exampleCreateRequest()
	},
	{
		id: 50002,
		scenario: 'ordinary',
		ageDays: 2,
		request: application({
			rep: 31,
			legal: 'Two Rivers Hardware Inc.',
			dba: 'Two Rivers Hardware',
			address: '88 Pine Street',
			city: 'Burlington',
			state: 'VT',
			zip: '05401',
			phone: '802-555-0123',
			email: 'store@tworivershardware.example',
			website: 'https://tworivershardware.example',
			taxId: '03-7654321',
			goods: 'Hardware, tools and garden supplies',
			ownership: 4,
			yearsOwned: 14,
			avgTicket: 42,
			monthly: 91000,
			bank: {
				name: 'Green Mountain Savings Bank',
				contact: 'Tom Okafor',
				phone: '802-555-0111',
				acct: '7720019934',
				routing: '011600062',
				opened: '09/02/11'
			},
			owner1: {
				first: 'Marcus',
				last: 'Ortega',
				title: 'President',
				dob: '11/3/1971',
				ssn: '900782201',
				phone: '802-555-0164',
				address: '37 Willow Brook Road',
				city: 'South Burlington',
				state: 'VT',
				zip: '05403',
				email: 'marcus@tworivershardware.example',
				percent: 60
			},
			owner2: {
				first: 'Priya',
				last: 'Raman',
				title: 'Secretary',
				dob: '6/25/1979',
				ssn: '900783302',
				phone: '802-555-0165',
				address: '902 North Avenue',
				city: 'Burlington',
				state: 'VT',
				zip: '05408',
				email: 'priya@tworivershardware.example',
				percent: 40
			},
			terminals: [T2, P400],
			internet: 10
		})
	},
	{
		id: 50003,
		scenario: 'ordinary',
		ageDays: 5,
		request: application({
			rep: 47,
			legal: 'Lakeside Paddle Sports LLC',
			dba: 'Lakeside Kayak Rentals',
			address: '1 Harbor Drive',
			city: 'Traverse City',
			state: 'MI',
			zip: '49684',
			phone: '231-555-0150',
			email: 'rent@lakesidekayak.example',
			website: 'https://lakesidekayak.example',
			taxId: '38-2468013',
			goods: 'Kayak and paddleboard rentals and lessons',
			ownership: 3,
			yearsOwned: 4,
			avgTicket: 65,
			monthly: 22000,
			bank: {
				name: 'Grand Traverse Credit Union',
				contact: 'Lena Fischer',
				phone: '231-555-0199',
				acct: '31188204',
				routing: '272471852',
				opened: '04/20/21'
			},
			owner1: {
				first: 'Erik',
				last: 'Lindqvist',
				title: 'Owner',
				dob: '8/9/1990',
				ssn: '900614455',
				phone: '231-555-0171',
				address: '605 Cherry Bend Road',
				city: 'Suttons Bay',
				state: 'MI',
				zip: '49682',
				email: 'erik@lakesidekayak.example',
				percent: 100
			},
			season: { start: '05/01/2026', end: '10/15/2026' },
			terminals: [W5],
			internet: 30
		})
	},
	{
		id: 50004,
		scenario: 'ordinary',
		ageDays: 9,
		request: application({
			rep: 31,
			legal: 'Copper Kettle Café LLC',
			dba: 'Copper Kettle Café',
			address: '17 Biltmore Avenue',
			city: 'Asheville',
			state: 'NC',
			zip: '28801',
			phone: '828-555-0133',
			email: 'info@copperkettle.example',
			website: 'https://copperkettle.example',
			taxId: '56-1357924',
			goods: 'Breakfast, lunch and coffee',
			ownership: 3,
			yearsOwned: 8,
			avgTicket: 18,
			monthly: 47000,
			bank: {
				name: 'Blue Ridge Merchants Bank',
				contact: 'Howard Chen',
				phone: '828-555-0188',
				acct: '550031847',
				routing: '053112929',
				opened: '07/08/17'
			},
			owner1: {
				first: 'Rosa',
				last: 'Delgado',
				title: 'Owner',
				dob: '2/28/1976',
				ssn: '900337788',
				phone: '828-555-0102',
				address: '44 Sunset Terrace',
				city: 'Weaverville',
				state: 'NC',
				zip: '28787',
				email: 'rosa@copperkettle.example',
				percent: 100
			},
			terminals: [T2],
			internet: 0
		})
	},
	{
		id: 50005,
		scenario: 'identity_fails',
		ageDays: 1,
		request: application({
			rep: 31,
			legal: 'Northwind Detailing Co.',
			dba: 'Northwind Auto Detailing',
			address: '2900 Larimer Street',
			city: 'Denver',
			state: 'CO',
			zip: '80202',
			phone: '303-555-0148',
			email: 'book@northwinddetailing.example',
			website: 'https://northwinddetailing.example',
			taxId: '84-9081726',
			goods: 'Car detailing and ceramic coating',
			ownership: 1,
			yearsOwned: 3,
			avgTicket: 180,
			monthly: 26000,
			bank: {
				name: 'Front Range Federal Bank',
				contact: 'Amy Park',
				phone: '303-555-0197',
				acct: '90045521',
				routing: '102000021',
				opened: '01/15/23'
			},
			owner1: {
				first: 'Łukasz',
				last: 'Kowalczyk',
				title: 'Sole Proprietor',
				dob: '12/1/1988',
				ssn: '900226677',
				phone: '303-555-0166',
				address: '1250 Aspen Court',
				city: 'Lakewood',
				state: 'CO',
				zip: '80226',
				email: 'lukasz@northwinddetailing.example',
				percent: 100
			},
			terminals: [W5],
			internet: 20
		})
	},
	{
		id: 50006,
		scenario: 'bureau_unavailable',
		ageDays: 1,
		request: application({
			rep: 47,
			legal: 'Mesa Verde Pottery LLC',
			dba: 'Mesa Verde Pottery',
			address: '120 Canyon Road',
			city: 'Santa Fe',
			state: 'NM',
			zip: '87501',
			phone: '505-555-0129',
			email: 'studio@mesaverdepottery.example',
			website: 'https://mesaverdepottery.example',
			taxId: '85-5566778',
			goods: 'Handmade pottery and ceramics classes',
			ownership: 3,
			yearsOwned: 11,
			avgTicket: 85,
			monthly: 19000,
			bank: {
				name: 'High Desert State Bank',
				contact: 'Miguel Romero',
				phone: '505-555-0181',
				acct: '6600917245',
				routing: '107000233',
				opened: '05/30/14'
			},
			owner1: {
				first: 'Ana',
				last: 'Beltrán',
				title: 'Managing Member',
				dob: '9/14/1969',
				ssn: '900559900',
				phone: '505-555-0174',
				address: '731 Acequia Madre',
				city: 'Santa Fe',
				state: 'NM',
				zip: '87505',
				email: 'ana@mesaverdepottery.example',
				percent: 100
			},
			terminals: [T2],
			internet: 25
		})
	}
];

/** The decision on record for 50004 (seeded as received, through the same store path). */
export const DEMO_DECISION_50004 = {
	IPAddress: '203.0.113.24',
	IsAccepted: true,
	ApplicationID: 50004,
	MerchantSSN: '900337788',
	MerchantFirstName: 'Rosa',
	MerchantLastName: 'Delgado',
	MerchantEmail: 'rosa@copperkettle.example',
	MerchantIPAddress: '203.0.113.24',
	IsIndividualGuarantyAccepted: true,
	AcceptanceLanguage: {
		Accept_TermsAndConditions_Prod: true,
		Accept_PaymentReceipt_Prod: true,
		Accept_IndividualGuaranty_Prod: true,
		Accept_SeasonalAddendum_Prod: false,
		Accept_NextDayFunding_Prod: true
	},
	NotificationEmail: 'rosa@copperkettle.example'
};
