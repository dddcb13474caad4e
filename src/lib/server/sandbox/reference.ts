/**
 * Reference data: the same for every office, fixed in code because nothing changes it. Shapes
 * are the contract's assumed ones (onboarding-contract.md).
 */

export const AVAILABLE_EQUIPMENT = [
	{
		AvailableTerminalID: 12,
		DisplayName: 'Countertop terminal T2',
		Price: 299.0,
		Software: [
			{
				AvailableSoftwareID: 4,
				Description: 'Retail',
				Versions: [
					{ VersionID: '3', Description: 'v3 EMV' },
					{ VersionID: '4', Description: 'v4 EMV contactless' }
				]
			},
			{
				AvailableSoftwareID: 5,
				Description: 'Restaurant (tip adjust)',
				Versions: [{ VersionID: '3', Description: 'v3 EMV' }]
			}
		]
	},
	{
		AvailableTerminalID: 14,
		DisplayName: 'Wireless terminal W5',
		Price: 449.0,
		Software: [
			{
				AvailableSoftwareID: 4,
				Description: 'Retail',
				Versions: [{ VersionID: '4', Description: 'v4 EMV contactless' }]
			},
			{
				AvailableSoftwareID: 6,
				Description: 'Mobile service',
				Versions: [{ VersionID: '2', Description: 'v2 LTE' }]
			}
		]
	},
	{
		AvailableTerminalID: 21,
		DisplayName: 'PIN pad P400',
		Price: 129.0,
		Software: [
			{
				AvailableSoftwareID: 8,
				Description: 'PIN debit',
				Versions: [{ VersionID: '1', Description: 'v1 encrypting' }]
			}
		]
	},
	{
		AvailableTerminalID: 30,
		DisplayName: 'Smart POS tablet S10',
		Price: 799.0,
		Software: [
			{
				AvailableSoftwareID: 9,
				Description: 'Point of sale, retail and food service',
				Versions: [
					{ VersionID: '7', Description: '2026.1' },
					{ VersionID: '8', Description: '2026.2' }
				]
			}
		]
	}
];

export const PAYMENT_METHODS = [
	{ PaymentMethodID: 1, Name: 'Purchase' },
	{ PaymentMethodID: 2, Name: 'Lease' },
	{ PaymentMethodID: 3, Name: 'Rental' },
	{ PaymentMethodID: 4, Name: 'Merchant owned' }
];

/** Rates in percent; includes the demo merchants' towns. */
export const SALES_TAX_RATES = [
	{ City: 'Springfield', State: 'IL', Zip: '62701', Rate: 8.75 },
	{ City: 'Chicago', State: 'IL', Zip: '60601', Rate: 10.25 },
	{ City: 'Portland', State: 'OR', Zip: '97205', Rate: 0.0 },
	{ City: 'Portland', State: 'ME', Zip: '04101', Rate: 5.5 },
	{ City: 'Austin', State: 'TX', Zip: '78701', Rate: 8.25 },
	{ City: 'Seattle', State: 'WA', Zip: '98101', Rate: 10.35 },
	{ City: 'Denver', State: 'CO', Zip: '80202', Rate: 8.81 },
	{ City: 'Madison', State: 'WI', Zip: '53703', Rate: 5.5 },
	{ City: 'Asheville', State: 'NC', Zip: '28801', Rate: 7.0 },
	{ City: 'Burlington', State: 'VT', Zip: '05401', Rate: 7.0 },
	{ City: 'Traverse City', State: 'MI', Zip: '49684', Rate: 6.0 },
	{ City: 'Santa Fe', State: 'NM', Zip: '87501', Rate: 8.4375 }
];

/** Matches city (any case, surrounding spaces ignored), state (any case) and the 5-digit zip. */
export function findSalesTaxRate(city: string, state: string, zip: string) {
	const c = city.trim().toLowerCase();
	const s = state.trim().toUpperCase();
	const z = zip.trim().slice(0, 5);
	return SALES_TAX_RATES.find((r) => r.City.toLowerCase() === c && r.State === s && r.Zip === z);
}
