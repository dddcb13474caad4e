import {
	createHash,
	createPrivateKey,
	generateKeyPairSync,
	randomBytes,
	type KeyObject
} from 'node:crypto';
import forge from 'node-forge';

/** The parts of a PKCS#12 bundle the seal needs. (No $lib imports: the end-to-end tests use it.) */
export interface P12 {
	p12: Buffer;
	passphrase: string;
	/** The sealing certificate, PEM. */
	certPem: string;
	/** SHA-256 of the certificate's DER: how `/verify` recognizes the portal's seal. */
	certSha256: string;
	/** The certificate's subject, as a reader's signature panel shows it. */
	subject: string;
	/** The bundle's private key, opened once for OpenSSL to sign with (see seal.ts). */
	privateKey: KeyObject;
	/**
	 * The first certificate that matches the key (the one `certSha256` names), and every
	 * certificate of the bundle forge can read (RSA ones), in the bundle's order.
	 */
	certificate: forge.pki.Certificate;
	certificates: forge.pki.Certificate[];
}

/** Opens a PKCS#12 bundle with node-forge and finds the certificate that matches its key. */
export function readP12(p12: Buffer, passphrase: string): P12 {
	const asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary')));
	const bundle = forge.pkcs12.pkcs12FromAsn1(asn1, false, passphrase);
	const bags = (type: 'pkcs8ShroudedKeyBag' | 'keyBag' | 'certBag'): forge.pkcs12.Bag[] => {
		const oid = forge.pki.oids[type] as string;
		return bundle.getBags({ bagType: oid })[oid] ?? [];
	};
	const keyBag = bags('pkcs8ShroudedKeyBag')[0] ?? bags('keyBag')[0];
	const key = keyBag?.key as forge.pki.rsa.PrivateKey | undefined;
	if (!key) throw new Error('the bundle holds no private key');
	const certificates = bags('certBag').flatMap((bag) => (bag.cert ? [bag.cert] : []));
	const cert = certificates.find((c) => {
		const pub = c.publicKey as forge.pki.rsa.PublicKey | undefined;
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
			.join(', '),
		privateKey: createPrivateKey(forge.pki.privateKeyToPem(key)),
		certificate: cert,
		certificates
	};
}

/**
 * A self-signed sealing certificate for embedded defaults: RSA 3072 (node's generator), the
 * certificate and the PKCS#12 bundle built by node-forge. Readers show it as "signed, identity
 * unknown" until someone trusts it; production sets an operator's certificate instead.
 */
export function generateSealP12(
	now = new Date(),
	subject = 'Signing portal document seal',
	organization = 'Signing portal (self-signed, embedded defaults)',
	modulusLength = 3072
): Buffer {
	const pair = generateKeyPairSync('rsa', { modulusLength });
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
		{ name: 'commonName', value: subject },
		{ name: 'organizationName', value: organization }
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
