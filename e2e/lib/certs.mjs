// A throwaway certificate authority, made at run time and never written anywhere but the run's own folder,
// plus a server certificate it signs for the host the proxy intercepts. node-forge builds and signs the
// certificates (pure JS, so CI needs no openssl); node:crypto makes the RSA keys, which is much faster.
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import forge from 'node-forge'

const { pki, md } = forge
const DAY = 24 * 60 * 60 * 1000

function newKeys() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  })
  return { keyPem: privateKey, privateKey: pki.privateKeyFromPem(privateKey), publicKey: pki.publicKeyFromPem(publicKey) }
}

function baseCert(publicKey, commonName, days) {
  const cert = pki.createCertificate()
  cert.publicKey = publicKey
  cert.serialNumber = '01' + randomBytes(15).toString('hex') // positive, random, 16 bytes
  cert.validity.notBefore = new Date(Date.now() - DAY)
  cert.validity.notAfter = new Date(Date.now() + days * DAY)
  cert.setSubject([{ name: 'commonName', value: commonName }])
  return cert
}

/** A CA valid for two days: { certPem, keyPem, cert, privateKey }. */
export function createCA(commonName = 'hark-memory e2e throwaway CA') {
  const keys = newKeys()
  const cert = baseCert(keys.publicKey, commonName, 2)
  cert.setIssuer(cert.subject.attributes)
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ])
  cert.sign(keys.privateKey, md.sha256.create())
  return { certPem: pki.certificateToPem(cert), keyPem: keys.keyPem, cert, privateKey: keys.privateKey }
}

/** A server certificate for `hosts` (DNS names), signed by `ca`: { certPem, keyPem }. */
export function issueServerCert(ca, hosts) {
  const keys = newKeys()
  const cert = baseCert(keys.publicKey, hosts[0], 2)
  cert.setIssuer(ca.cert.subject.attributes)
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: hosts.map((value) => ({ type: 2, value })) },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.cert.generateSubjectKeyIdentifier().getBytes() },
  ])
  cert.sign(ca.privateKey, md.sha256.create())
  return { certPem: pki.certificateToPem(cert), keyPem: keys.keyPem }
}
