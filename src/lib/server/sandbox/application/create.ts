import { ApplicationCreateRequestSchema } from '../../onboarding/schemas';
import { addError, type ModelState } from '../http';
import { check } from '../modelstate';
import {
	LEASE_FIELDS,
	NULL_GROUPS,
	RESPONSE_ONLY_NULL_GROUPS,
	SECOND_OWNER_REQUIRED
} from './fields';

type Obj = Record<string, unknown>;

export type CreateCheck = { ok: true; request: Obj } | { ok: false; modelState: ModelState };

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks a create request with the client's request schema (every field's type, every group
 * present, ApplicationID null), plus what only the service can know: `OfficeNo` is the office in
 * the path, and a second owner's essentials are there when `IsSecondOwner` is true. Returns the
 * parsed request (unknown keys dropped, numeric-string ids as integers).
 */
export function checkCreateRequest(body: unknown, officeId: number): CreateCheck {
	const { output, modelState } = check(ApplicationCreateRequestSchema, body);
	if (isObject(body)) {
		if (Number.isInteger(body.OfficeNo) && body.OfficeNo !== officeId) {
			addError(modelState, 'OfficeNo', 'OfficeNo must be the office in the path.');
		}
		const owner = body.OwnerOfficer;
		if (isObject(owner) && owner.IsSecondOwner === true) {
			for (const field of SECOND_OWNER_REQUIRED) {
				const key = `OwnerOfficer.${field}`;
				if ((owner[field] === null || owner[field] === undefined) && !modelState[key]) {
					addError(modelState, key, `${field} is required when IsSecondOwner is true.`);
				}
			}
		}
	}
	if (!output || Object.keys(modelState).length > 0) return { ok: false, modelState };
	return { ok: true, request: output as Obj };
}

/** How many terminal ids `toResponse` needs. */
export const terminalCount = (request: Obj) =>
	((request.EquipmentSetupForm as Obj).AssignedTerminals as unknown[]).length;

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Fee strings become numbers (observed difference 6). */
function feesAsNumbers(group: unknown): unknown {
	if (!isObject(group)) return group;
	return Object.fromEntries(
		Object.entries(group).map(([k, v]) => [
			k,
			typeof v === 'string' && DECIMAL.test(v) ? Number(v) : v
		])
	);
}

/** The response's `Lease` object: all-null members unless the request carried a `Leases` object. */
function lease(leases: unknown): Obj {
	const given = isObject(leases) ? leases : {};
	const out: Obj = Object.fromEntries(LEASE_FIELDS.map((f) => [f, given[f] ?? null]));
	out.LeaseCompanyID = Number.isSafeInteger(given.LeaseCompanyID) ? given.LeaseCompanyID : 0;
	out.LeasedTerminals = Array.isArray(given.LeasedTerminals) ? given.LeasedTerminals : [];
	return out;
}

/** Replaces `from` by `to` at the same position (key order follows the request's). */
function rename(obj: Obj, from: string, to: string): Obj {
	return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k === from ? to : k, v]));
}

/**
 * The Application as the service returns it after a create, with the seven observed
 * differences: (1) OfficeNo and Inspect_Office as strings; (2) OtherFees and BillingService
 * null; (3) ESF_ShippingMethod 0; (4) AssignedSoftwareID = the submitted AvailableSoftwareID,
 * AvailableSoftwareID null; (5) PaymentMethod with null members, AssignedPeripherals [];
 * (6) fee strings as numbers; (7) service-assigned AssignedTerminalIDs.
 * Plus the renames Inspect_Mgr → Inspect_Rep_Mgr, Net_Retail_CNP_Dwngrd →
 * Net_Retail_CNP_Downgrade, Leases → Lease, and the response-only members.
 */
export function toResponse(request: Obj, applicationId: number, terminalIds: number[]): Obj {
	const owner = { ...(request.OwnerOfficer as Obj) };
	if (owner.IsSecondOwner !== true) {
		for (const key of Object.keys(owner)) if (key.startsWith('Ownr2_')) owner[key] = null;
	}
	const survey = rename(request.SiteSurvey as Obj, 'Inspect_Mgr', 'Inspect_Rep_Mgr');
	survey.Inspect_Office = String(survey.Inspect_Office);
	const network = rename(
		feesAsNumbers(request.ChargeCardNetwork) as Obj,
		'Net_Retail_CNP_Dwngrd',
		'Net_Retail_CNP_Downgrade'
	);
	network.Net_Pay_Freq = 1;

	const esf = request.EquipmentSetupForm as Obj;
	const terminals = (esf.AssignedTerminals as Obj[]).map((t, i) => {
		const id = terminalIds[i] ?? 0;
		const software = t.AssignedSoftware as Obj;
		return {
			ApplicationID: applicationId,
			AssignedTerminalID: id,
			AvailableTerminalID: t.AvailableTerminalID,
			DisplayName: t.DisplayName,
			IsNew: t.IsNew,
			IsRefurb: t.IsRefurb,
			IsPurchase: t.IsPurchase,
			IsReprogram: t.IsReprogram,
			PaymentMethod: { PaymentMethodID: null, Name: null },
			Price: t.Price,
			AssignedPeripherals: [],
			AssignedSoftware: {
				AssignedTerminalID: id,
				AssignedSoftwareID: software.AvailableSoftwareID,
				AvailableSoftwareID: null,
				Description: software.Description,
				Version: software.Version
			}
		};
	});
	const equipment = rename({ ...esf }, 'Leases', 'Lease');
	equipment.ESF_ShippingMethod = 0;
	equipment.AssignedTerminals = terminals;
	equipment.Lease = lease(esf.Leases);

	return {
		ApplicationID: applicationId,
		OfficeNo: String(request.OfficeNo),
		RepNo: request.RepNo,
		BusinessNames: request.BusinessNames,
		Profile: request.Profile,
		OwnerOfficer: owner,
		TradeReferences: request.TradeReferences ?? null,
		SiteSurvey: survey,
		ConsolidatedBilling: feesAsNumbers(request.ConsolidatedBilling),
		ChargeCardNetwork: network,
		OtherFees: null,
		GatewayMerchants: feesAsNumbers(request.GatewayMerchants),
		BillingService: null,
		EquipmentSetupForm: equipment,
		InternetMobileAddendum: request.InternetMobileAddendum,
		AccountUpdater: { AcctUpdater_Accept: null, AcctUpdater_Prod: null, AcctUpdater_Fee: null },
		...Object.fromEntries(NULL_GROUPS.map((g) => [g, null])),
		...Object.fromEntries(RESPONSE_ONLY_NULL_GROUPS.map((g) => [g, null]))
	};
}

/** What the response drops but the sandbox keeps for the PDF: the submitted OtherFees and
 * BillingService (fees as numbers). */
export function submittedExtras(request: Obj): Obj {
	return {
		OtherFees: feesAsNumbers(request.OtherFees ?? null),
		BillingService: feesAsNumbers(request.BillingService ?? null)
	};
}
