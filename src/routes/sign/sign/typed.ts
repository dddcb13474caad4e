/**
 * The sign form's typed values and ticks, as the page's snapshot keeps them. Only the fields named
 * here are read: the SSN is not among them, and is never kept anywhere in the browser (only
 * whether one had been typed, so that the page can ask for it again).
 */
const KEPT = [
	'firstName',
	'lastName',
	'email',
	'notificationEmail',
	'signature',
	'reason'
] as const;

export interface Typed {
	/** Which form it was: the accept form's values are not put into the decline form's. */
	action: string;
	values: Partial<Record<(typeof KEPT)[number], string>>;
	/** The names of the ticked boxes (`section-<key>`); only the accept form has them. */
	ticked: string[];
	/** Whether the SSN field held a number: never what it held. */
	ssnTyped: boolean;
}

const field = (form: HTMLFormElement, name: string) => {
	const el = form.elements.namedItem(name);
	return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el : null;
};

/** The form's tick boxes, one per section (`section-<key>`). */
const sectionBoxes = (form: HTMLFormElement) =>
	[...form.querySelectorAll<HTMLInputElement>('input[type=checkbox]')].filter((box) =>
		box.name.startsWith('section-')
	);

export function typedOn(form: HTMLFormElement): Typed {
	const values: Typed['values'] = {};
	for (const name of KEPT) {
		const el = field(form, name);
		if (el) values[name] = el.value;
	}
	const ticked = sectionBoxes(form)
		.filter((box) => box.checked)
		.map((box) => box.name);
	const ssnTyped = (field(form, 'ssn')?.value ?? '') !== '';
	return { action: form.getAttribute('action') ?? '', values, ticked, ssnTyped };
}

/**
 * Puts the kept values back, into the fields still as the server's page had them: one typed or
 * ticked after a reload but before the scripts arrived is newer than what was kept, and stays.
 * Answers whether an SSN typed before is now to be typed again (the field is empty).
 */
export function putBack(form: HTMLFormElement, typed: Typed): { ssnLost: boolean } {
	if (typed.action !== form.getAttribute('action')) return { ssnLost: false };
	for (const name of KEPT) {
		const el = field(form, name);
		const value = typed.values[name];
		if (el && typeof value === 'string' && el.value === el.defaultValue && el.value !== value) {
			el.value = value;
			// As if typed and left: the page's handlers (the names' check against the owner's) see it.
			el.dispatchEvent(new Event('input', { bubbles: true }));
			el.dispatchEvent(new Event('change', { bubbles: true }));
		}
	}
	for (const box of sectionBoxes(form)) {
		if (box.checked === box.defaultChecked) box.checked = typed.ticked.includes(box.name);
	}
	return { ssnLost: typed.ssnTyped === true && (field(form, 'ssn')?.value ?? '') === '' };
}
