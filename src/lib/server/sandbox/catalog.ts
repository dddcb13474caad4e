import { acceptanceLanguage } from './acceptance/acceptance';
import { addError, invalid, json, message, type ModelState } from './http';
import { AVAILABLE_EQUIPMENT, PAYMENT_METHODS, findSalesTaxRate } from './reference';
import type { Handler } from './router';

/** The reference-data operations: the same answers for every office. */

export const getAcceptanceLanguage: Handler = async ({ db, officeId }) =>
	json(await acceptanceLanguage(db, officeId));

export const getAvailableEquipment: Handler = async () => json(AVAILABLE_EQUIPMENT);

export const getPaymentMethods: Handler = async () => json(PAYMENT_METHODS);

/** GET salestaxrate?city=&state=&zip=: all three required; an unknown place is 404. */
export const getSalesTaxRate: Handler = async ({ url }) => {
	const state: ModelState = {};
	const params: Record<string, string> = {};
	// Query names bind case-insensitively, as in ASP.NET.
	const query = new Map([...url.searchParams].map(([k, v]) => [k.toLowerCase(), v]));
	for (const name of ['city', 'state', 'zip']) {
		const value = query.get(name)?.trim() ?? '';
		if (value === '') addError(state, name, `The ${name} parameter is required.`);
		params[name] = value;
	}
	if (Object.keys(state).length > 0) return invalid(state);
	const rate = findSalesTaxRate(params.city!, params.state!, params.zip!);
	if (!rate) return message(404, 'No sales tax rate is known for that city, state and zip.');
	return json(rate);
};
