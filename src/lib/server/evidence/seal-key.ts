import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import forge from 'node-forge';
import { ConfigError, type Config } from '$lib/server/config/config';
import { createFileOnce } from '$lib/server/crypto/files';

/** The portal's document seal: a PKCS#12 bundle (key and certificate) and what it says. */
export interface SealKey {
	p12: Buffer;
	passphrase: string;
	/** The sealing certificate, PEM. */
	certPem: string;
	/** SHA-256 of the certificate's DER: how `/verify` recognizes the portal's seal. */
	certSha256: string;
	/** The certificate's subject, as a reader's signature panel shows it. */
	subject: string;
	/** Operator-provided (production) or generated into the data folder (embedded defaults). */
	source: 'operator' | 'generated';
}

const GENERATED_FILE = 'seal.p12';

/** Opens a PKCS#12 bundle with node-forge and finds the certificate that matches its key. */
export function readP12(p12: Buffer, passphrase: string): Omit<SealKey, 'source'> {
	const asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary')));
	const bundle = forge.pkcs12.pkcs12FromAsn1(asn1, false, passphrase);
	const bags = (type: 'pkcs8ShroudedKeyBag' | 'keyBag' | 'certBag'): forge.pkcs12.Bag[] => {
		const oid = forge.pki.oids[type] as string;
		return bundle.getBags({ bagType: oid })[oid] ?? [];
	};
	const keyBag = bags('pkcs8ShroudedKeyBag')[0] ?? bags('keyBag')[0];
	const key = keyBag?.key as forge.pki.rsa.PrivateKey | undefined;
	if (!key) throw new Error('the bundle holds no private key');
	const cert = bags('certBag')
		.map((bag) => bag.cert)
		.find((c) => {
			const pub = c?.publicKey as forge.pki.rsa.PublicKey | undefined;
			return pub?.n?.compareTo(key.n) === 0 && pub.e.compareTo(key.e) === 0;
		});
	if (!cert) throw new Error('the bundle holds no certificate for its key');
	const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
	return {
		p12,
		passphrase,
		certPem: forge.pki.certificateToPem(cert),
		certSha256: createHash('sha256').update(der).digest('hex'),
		subject: cert.subject.attributes
			.map((a) => `${a.shortName ?? a.name}=${String(a.value)}`)
			.join(', ')
	};
}

/**
 * A self-signed sealing certificate for embedded defaults: RSA 3072 (node's generator), the
 * certificate and the PKCS#12 bundle built by node-forge. Readers show it as "signed, identity
 * unknown" until someone trusts it; production sets an operator's certificate instead.
 */
export function generateSealP12(now = new Date()): Buffer {
	const pair = generateKeyPairSync('rsa', { modulusLength: 3072 });
	const key = forge.pki.privateKeyFromPem(
		pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()
	);
	const cert = forge.pki.createCertificate();
	cert.publicKey = forge.pki.publicKeyFromPem(
		pair.publicKey.export({ type: 'spki', format: 'pem' }).toString()
	);
	// A positive serial: the first byte's top bit clear.
	cert.serialNumber = '01' + randomBytes(15).toString('hex');
	cert.validity.notBefore = new Date(now.getTime() - 3_600_000);
	cert.validity.notAfter = new Date(now.getTime() + 20 * 365 * 86_400_000);
	const name = [
		{ name: 'commonName', value: 'Signing portal document seal' },
		{ name: 'organizationName', value: 'Signing portal (self-signed, embedded defaults)' }
	];
	cert.setSubject(name);
	cert.setIssuer(name);
	cert.setExtensions([
		{ name: 'basicConstraints', cA: false },
		{ name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
		{ name: 'subjectKeyIdentifier' }
	]);
	cert.sign(key, forge.md.sha256.create());
	const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], '', { algorithm: 'aes256' });
	return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

/**
 * The operator's PKCS#12 (SEAL_P12_FILE, SEAL_P12_PASSPHRASE) or, unset, the one generated into
 * DATA_DIR on first start (mode 0600, an empty passphrase: the file's mode is its protection).
 */
export function loadSealKey(config: Config): SealKey {
	if (config.SEAL_P12_FILE) {
		const path = resolve(config.SEAL_P12_FILE);
		if (!existsSync(path)) throw new ConfigError([`SEAL_P12_FILE: ${path} does not exist`]);
		try {
			return {
				...readP12(readFileSync(path), config.SEAL_P12_PASSPHRASE ?? ''),
				source: 'operator'
			};
		} catch {
			// forge's message may quote bytes of the file: our words only.
			throw new ConfigError([
				'SEAL_P12_FILE: cannot be opened as a PKCS#12 bundle with SEAL_P12_PASSPHRASE (an RSA key and its certificate are needed)'
			]);
		}
	}
	const path = resolve(config.DATA_DIR, GENERATED_FILE);
	if (!existsSync(path)) createFileOnce(path, generateSealP12());
	return { ...readP12(readFileSync(path), ''), source: 'generated' };
}
