import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
	exampleAcceptanceLanguage,
	exampleCreateRequest,
	exampleCreateResponse,
	exampleDecisionRequest,
	exampleDecisionResponse
} from './fixtures';
import {
	ACCEPTANCE_SECTIONS,
	AcceptanceLanguageSchema,
	ApplicationCreateRequestSchema,
	ApplicationListSchema,
	ApplicationResponseSchema,
	AvailableEquipmentListSchema,
	IdentityAnswerSetSchema,
	IdentityQuestionSetSchema,
	MerchantDecisionRequestSchema,
	MerchantDecisionResponseSchema,
	PaymentMethodListSchema,
	SalesTaxRateSchema
} from './schemas';

/** The dot paths of every issue, or [] when the data parses. */
function failingPaths(schema: v.GenericSchema, data: unknown): string[] {
	const result = v.safeParse(schema, data);
	return result.success ? [] : result.issues.map((i) => v.getDotPath(i) ?? '(root)');
}

/** A deep copy that a test may change freely. */
const clone = <T>(x: T): T => structuredClone(x);

describe('Application create request', () => {
	it('accepts a request with every group, as the document describes it', () => {
		const out = v.parse(ApplicationCreateRequestSchema, exampleCreateRequest());
		expect(out.ApplicationID).toBeNull();
		expect(out.OfficeNo).toBe(1207);
		expect(out.SiteSurvey.Inspect_Office).toBe(1207);
		expect(out.SiteSurvey.Inspect_Mgr).toBeNull();
		expect(out.ChargeCardNetwork.Net_Retail_CNP_Dwngrd).toBe('0.50');
		expect(out.EquipmentSetupForm.Leases).toBeNull();
		expect(out.OtherFees?.RF_Statement_Fee).toBe('10.00');
		expect(out.OtherFees?.RF_Statement_Fee_Prod).toBe(true);
		expect(out.BillingService?.BS_Standard_Mon_Fee).toBe('0.00');
		// A numeric string is accepted for the terminal ids and read as a number.
		expect(out.EquipmentSetupForm.AssignedTerminals[0]?.AvailableTerminalID).toBe(12);
	});

	it('accepts fees as numbers as well as two-place strings', () => {
		const req = exampleCreateRequest();
		req.GatewayMerchants.GM_PmntGtwyVTerm_Mon_Fee = 10;
		expect(failingPaths(ApplicationCreateRequestSchema, req)).toEqual([]);
	});

	it('accepts a second owner and null OtherFees / BillingService', () => {
		const req = exampleCreateRequest();
		req.OwnerOfficer = {
			...req.OwnerOfficer,
			Ownr1_Percent: 60,
			IsSecondOwner: true,
			Ownr2_Legal_Name_First: 'Sam',
			Ownr2_Legal_Name_Last: 'Okafor',
			Ownr2_DOB: '11/20/1979',
			Ownr2_SSN: '987654321',
			Ownr2_Percent: 40
		};
		req.OtherFees = null;
		req.BillingService = null;
		expect(failingPaths(ApplicationCreateRequestSchema, req)).toEqual([]);
	});

	it.each([
		['ApplicationID', (r: Record<string, unknown>) => (r.ApplicationID = 50001)],
		['OfficeNo', (r: Record<string, unknown>) => (r.OfficeNo = '1207')],
		['RepNo', (r: Record<string, unknown>) => (r.RepNo = 3.5)],
		['Profile', (r: Record<string, unknown>) => delete r.Profile]
	])('names the top-level field %s when it is wrong', (path, mutate) => {
		const req = clone(exampleCreateRequest()) as unknown as Record<string, unknown>;
		mutate(req);
		expect(failingPaths(ApplicationCreateRequestSchema, req)).toEqual([path]);
	});

	it('names nested fields with wrong types or shapes', () => {
		const req = exampleCreateRequest();
		Object.assign(req.SiteSurvey, { Inspect_Office: '1207' });
		Object.assign(req.OtherFees!, { RF_Annual_Fee: '79.5' });
		Object.assign(req.Profile, { Bank_Date_Open: '2019-04-15' });
		Object.assign(req.OwnerOfficer, { Ownr1_DOB: '1981-03-07', Ownr1_SSN: '123-45-6789' });
		Object.assign(req.BusinessNames, { Mail_Monthly_Stmnt: 'yes' });
		Object.assign(req.EquipmentSetupForm.AssignedTerminals[0]!, { AvailableTerminalID: 'T2' });
		expect(failingPaths(ApplicationCreateRequestSchema, req).sort()).toEqual(
			[
				'BusinessNames.Mail_Monthly_Stmnt',
				'EquipmentSetupForm.AssignedTerminals.0.AvailableTerminalID',
				'OtherFees.RF_Annual_Fee',
				'OwnerOfficer.Ownr1_DOB',
				'OwnerOfficer.Ownr1_SSN',
				'Profile.Bank_Date_Open',
				'SiteSurvey.Inspect_Office'
			].sort()
		);
	});
});

describe('Application create response', () => {
	const submitted = exampleCreateRequest();
	const returned = v.parse(ApplicationResponseSchema, exampleCreateResponse(50001, 88017));
	const sentTerminal = submitted.EquipmentSetupForm.AssignedTerminals[0]!;
	const terminal = returned.EquipmentSetupForm.AssignedTerminals[0]!;

	it('carries the assigned ApplicationID', () => {
		expect(submitted.ApplicationID).toBeNull();
		expect(returned.ApplicationID).toBe(50001);
	});

	it('1. reads OfficeNo and Inspect_Office sent back as strings', () => {
		const raw = exampleCreateResponse();
		expect(raw.OfficeNo).toBe('1207');
		expect(raw.SiteSurvey.Inspect_Office).toBe('1207');
		expect(returned.OfficeNo).toBe(1207);
		expect(returned.SiteSurvey.Inspect_Office).toBe(1207);
	});

	it('2. accepts OtherFees and BillingService null although submitted populated', () => {
		expect(submitted.OtherFees).not.toBeNull();
		expect(submitted.BillingService).not.toBeNull();
		expect(returned.OtherFees).toBeNull();
		expect(returned.BillingService).toBeNull();
	});

	it('3. accepts ESF_ShippingMethod 0 for a non-zero submitted code', () => {
		expect(submitted.EquipmentSetupForm.ESF_ShippingMethod).not.toBe(0);
		expect(returned.EquipmentSetupForm.ESF_ShippingMethod).toBe(0);
	});

	it('4. has AssignedSoftwareID = submitted AvailableSoftwareID, AvailableSoftwareID null', () => {
		expect(terminal.AssignedSoftware.AssignedSoftwareID).toBe(
			sentTerminal.AssignedSoftware.AvailableSoftwareID
		);
		expect(terminal.AssignedSoftware.AvailableSoftwareID).toBeNull();
	});

	it('5. has a PaymentMethod with null members and empty AssignedPeripherals', () => {
		expect(sentTerminal.PaymentMethod).toBeNull();
		expect(terminal.PaymentMethod).toEqual({ PaymentMethodID: null, Name: null });
		expect(terminal.AssignedPeripherals).toEqual([]);
	});

	it('6. reads fee strings back as numbers', () => {
		expect(submitted.GatewayMerchants.GM_PmntGtwyVTerm_Mon_Fee).toBe('10.00');
		expect(returned.GatewayMerchants.GM_PmntGtwyVTerm_Mon_Fee).toBe(10);
		expect(returned.ChargeCardNetwork.Net_Retail_Trans_Fee).toBe(0.1);
		expect(returned.ConsolidatedBilling.RF_CB_Mon_Fee).toBe(0);
	});

	it('7. has a service-assigned AssignedTerminalID', () => {
		expect(sentTerminal.AssignedTerminalID).toBe(0);
		expect(terminal.AssignedTerminalID).toBe(88017);
		expect(terminal.AssignedSoftware.AssignedTerminalID).toBe(88017);
	});

	it('uses the response names Inspect_Rep_Mgr, Net_Retail_CNP_Downgrade and Lease', () => {
		expect(returned.SiteSurvey).toHaveProperty('Inspect_Rep_Mgr', null);
		expect(returned.SiteSurvey).not.toHaveProperty('Inspect_Mgr');
		expect(returned.ChargeCardNetwork.Net_Retail_CNP_Downgrade).toBe(0.5);
		expect(returned.ChargeCardNetwork).not.toHaveProperty('Net_Retail_CNP_Dwngrd');
		expect(returned.EquipmentSetupForm.Lease.LeasedTerminals).toEqual([]);
		expect(returned.EquipmentSetupForm).not.toHaveProperty('Leases');
		expect(returned.ChargeCardNetwork.Net_Pay_Freq).toBe(1);
		expect(returned.AccountUpdater).toEqual({
			AcctUpdater_Accept: null,
			AcctUpdater_Prod: null,
			AcctUpdater_Fee: null
		});
		expect(returned.OwnerOfficer.Ownr2_Legal_Name_First).toBeNull();
		expect(returned.CheckCard).toBeNull();
	});

	it('tolerates numeric strings, fee strings and fields it does not know', () => {
		const raw = clone(exampleCreateResponse()) as unknown as {
			ApplicationID: unknown;
			NewTopLevel: unknown;
			GatewayMerchants: Record<string, unknown>;
			EquipmentSetupForm: { AssignedTerminals: Record<string, unknown>[] };
		};
		raw.ApplicationID = '50001';
		raw.NewTopLevel = { anything: true };
		raw.GatewayMerchants.GM_Mobile_Mon_Fee = '4.95';
		raw.EquipmentSetupForm.AssignedTerminals[0]!.AssignedTerminalID = '88017';
		raw.EquipmentSetupForm.AssignedTerminals[0]!.AvailableTerminalID = '12';
		const out = v.parse(ApplicationResponseSchema, raw);
		expect(out.ApplicationID).toBe(50001);
		expect(out.GatewayMerchants.GM_Mobile_Mon_Fee).toBe(4.95);
		expect(out.EquipmentSetupForm.AssignedTerminals[0]?.AssignedTerminalID).toBe(88017);
		expect(out.EquipmentSetupForm.AssignedTerminals[0]?.AvailableTerminalID).toBe(12);
		expect(out).toHaveProperty('NewTopLevel', { anything: true });
	});

	it('names the field when a response has a wrong type', () => {
		const raw = clone(exampleCreateResponse()) as unknown as {
			ApplicationID: unknown;
			BusinessNames: Record<string, unknown>;
			EquipmentSetupForm: Record<string, unknown>;
		};
		raw.ApplicationID = 'A-1';
		raw.BusinessNames.DBA_Name = 42;
		delete raw.EquipmentSetupForm.Lease;
		expect(failingPaths(ApplicationResponseSchema, raw).sort()).toEqual([
			'ApplicationID',
			'BusinessNames.DBA_Name',
			'EquipmentSetupForm.Lease'
		]);
	});
});

describe('MerchantDecision', () => {
	it('accepts the request exactly as the document gives it', () => {
		const out = v.parse(MerchantDecisionRequestSchema, exampleDecisionRequest());
		expect(out.ApplicationID).toBe(50001);
		expect(out.AcceptanceLanguage.Accept_SeasonalAddendum_Prod).toBe(false);
		expect(Object.keys(out.AcceptanceLanguage)).toEqual(ACCEPTANCE_SECTIONS.map((s) => s.flag));
	});

	it('rejects a non-digit SSN, a missing flag and an unknown field, naming each', () => {
		const req = clone(exampleDecisionRequest()) as unknown as Record<string, unknown> & {
			AcceptanceLanguage: Record<string, unknown>;
		};
		req.MerchantSSN = '123-45-6789';
		delete req.AcceptanceLanguage.Accept_NextDayFunding_Prod;
		req.Extra = true;
		expect(failingPaths(MerchantDecisionRequestSchema, req).sort()).toEqual([
			'AcceptanceLanguage.Accept_NextDayFunding_Prod',
			'Extra',
			'MerchantSSN'
		]);
	});

	it('rejects a wrong type for IsAccepted and ApplicationID', () => {
		const req = { ...exampleDecisionRequest(), IsAccepted: 'true', ApplicationID: '50001' };
		expect(failingPaths(MerchantDecisionRequestSchema, req).sort()).toEqual([
			'ApplicationID',
			'IsAccepted'
		]);
	});

	it('reads the response and drops the echoed SSN', () => {
		const out = v.parse(MerchantDecisionResponseSchema, exampleDecisionResponse(50001, 70001));
		expect(out.MerchantDecisionID).toBe(70001);
		expect(out.AcceptanceLanguage).toBeNull();
		expect(out.NotificationEmail).toBeNull();
		expect(out.DecisionComment).toBeNull();
		expect(out).not.toHaveProperty('MerchantSSN');
		expect(JSON.stringify(out)).not.toContain('123456789');
	});

	it('names MerchantDecisionID when the response lacks it', () => {
		const raw: Record<string, unknown> = { ...exampleDecisionResponse() };
		delete raw.MerchantDecisionID;
		expect(failingPaths(MerchantDecisionResponseSchema, raw)).toEqual(['MerchantDecisionID']);
	});
});

describe('AcceptanceLanguage', () => {
	it('reads the contract example and lists the five sections in order', () => {
		const out = v.parse(AcceptanceLanguageSchema, exampleAcceptanceLanguage());
		expect(out.SeasonalAddendum_Text).toBeNull();
		expect(ACCEPTANCE_SECTIONS.map((s) => [s.key, s.flag, s.textField, s.title])).toEqual([
			[
				'TermsAndConditions',
				'Accept_TermsAndConditions_Prod',
				'TermsAndConditions_Text',
				'Terms and Conditions'
			],
			['PaymentReceipt', 'Accept_PaymentReceipt_Prod', 'PaymentReceipt_Text', 'Payment Receipt'],
			[
				'IndividualGuaranty',
				'Accept_IndividualGuaranty_Prod',
				'IndividualGuaranty_Text',
				'Individual Guaranty'
			],
			[
				'SeasonalAddendum',
				'Accept_SeasonalAddendum_Prod',
				'SeasonalAddendum_Text',
				'Seasonal Addendum'
			],
			['NextDayFunding', 'Accept_NextDayFunding_Prod', 'NextDayFunding_Text', 'Next Day Funding']
		]);
	});

	it('allows Version to be absent and an OfficeID string; names a non-boolean flag', () => {
		const rest: Record<string, unknown> = { ...exampleAcceptanceLanguage(), OfficeID: '1207' };
		delete rest.Version;
		expect(v.parse(AcceptanceLanguageSchema, rest).OfficeID).toBe(1207);
		expect(
			failingPaths(AcceptanceLanguageSchema, { ...rest, Accept_PaymentReceipt_Prod: 'Y' })
		).toEqual(['Accept_PaymentReceipt_Prod']);
	});
});

describe('identity check', () => {
	const set = {
		ApplicationID: 50001,
		QuestionSetID: '4f1c2a90e0b84f0c',
		TimeLimitSeconds: 120,
		Questions: [
			{
				QuestionID: '1',
				Prompt: 'Which of the following streets have you lived on?',
				Choices: [
					{ ChoiceID: '1', Text: 'ELM ST' },
					{ ChoiceID: 5, Text: 'NONE OF THE ABOVE' }
				]
			}
		]
	};

	it('reads a question set whose ids are numeric strings, with or without a time limit', () => {
		const out = v.parse(IdentityQuestionSetSchema, set);
		expect(out.Questions[0]?.QuestionID).toBe(1);
		expect(out.Questions[0]?.Choices.map((c) => c.ChoiceID)).toEqual([1, 5]);
		const noLimit: Record<string, unknown> = { ...set };
		delete noLimit.TimeLimitSeconds;
		expect(v.parse(IdentityQuestionSetSchema, noLimit).TimeLimitSeconds).toBeUndefined();
		expect(
			failingPaths(IdentityQuestionSetSchema, { ...set, Questions: [{ QuestionID: 1 }] })
		).toEqual(['Questions.0.Prompt', 'Questions.0.Choices']);
	});

	it('accepts an answer set and rejects an empty one', () => {
		const answers = {
			ApplicationID: 50001,
			QuestionSetID: '4f1c2a90e0b84f0c',
			Answers: [{ QuestionID: 1, ChoiceID: '3' }]
		};
		expect(v.parse(IdentityAnswerSetSchema, answers).Answers).toEqual([
			{ QuestionID: 1, ChoiceID: 3 }
		]);
		expect(failingPaths(IdentityAnswerSetSchema, { ...answers, Answers: [] })).toEqual(['Answers']);
		expect(failingPaths(IdentityAnswerSetSchema, { ...answers, QuestionSetID: 7 })).toEqual([
			'QuestionSetID'
		]);
	});
});

describe('reference data and lists', () => {
	it('reads the contract examples', () => {
		const list = v.parse(ApplicationListSchema, [
			{
				ApplicationID: 50001,
				OfficeNo: '1207',
				RepNo: 31,
				DBA_Name: 'Blue Heron Bakery',
				Legal_Name: 'Blue Heron Bakery LLC',
				Ownr1_Legal_Name_First: 'Dana',
				Ownr1_Legal_Name_Last: 'Whitfield',
				Ownr1_Email: 'dana@blueheronbakery.example',
				CreatedDate: '11/02/2026',
				Status: 'Pending Signature'
			}
		]);
		expect(list[0]?.OfficeNo).toBe(1207);
		const equipment = v.parse(AvailableEquipmentListSchema, [
			{
				AvailableTerminalID: 12,
				DisplayName: 'Countertop terminal T2',
				Price: 299.0,
				Software: [
					{
						AvailableSoftwareID: 4,
						Description: 'Retail',
						Versions: [{ VersionID: '3', Description: 'v3 EMV' }]
					}
				]
			}
		]);
		expect(equipment[0]?.Software[0]?.Versions[0]?.VersionID).toBe('3');
		expect(v.parse(PaymentMethodListSchema, [{ PaymentMethodID: 1, Name: 'Purchase' }])).toEqual([
			{ PaymentMethodID: 1, Name: 'Purchase' }
		]);
		expect(
			v.parse(SalesTaxRateSchema, { City: 'Springfield', State: 'IL', Zip: '62701', Rate: 8.75 })
				.Rate
		).toBe(8.75);
	});

	it('names the failing field in a list item', () => {
		expect(
			failingPaths(PaymentMethodListSchema, [
				{ PaymentMethodID: 1, Name: 'Purchase' },
				{ PaymentMethodID: 2 }
			])
		).toEqual(['1.Name']);
		expect(
			failingPaths(SalesTaxRateSchema, { City: 'X', State: 'IL', Zip: '1', Rate: 'high' })
		).toEqual(['Rate']);
	});
});
