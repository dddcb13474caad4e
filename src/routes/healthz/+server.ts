import { json } from '@sveltejs/kit';
import { app } from '$lib/server/app';
import { health } from '$lib/server/app/health';

export async function GET() {
	const { status, body } = await health(app());
	return json(body, { status });
}
