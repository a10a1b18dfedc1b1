// The route from the plugin's one literal URL, https://harkstudio.io/mcp, to the fake Hark on loopback.
// An HTTP proxy (the session gets HTTPS_PROXY) that answers `CONNECT harkstudio.io:443`, ends TLS itself with a
// certificate from the run's throwaway CA, and pipes the decrypted bytes to the fake Hark's plain-HTTP port.
// CONNECT to any other host, and plain-HTTP proxying, are refused with 403 (unless passThrough is set, for a
// person running Claude Code by hand against the real model API: then other hosts are tunnelled untouched).
// Built on node:http and node:tls: a CONNECT handler is a few lines, and a MITM library would bring its own CA.
// Connection faults for the fault matrix (`connectFault`): the n-th CONNECT to the host can be refused (the proxy
// answers 502, as a proxy does when the host refuses the connection) or met with a certificate from another CA,
// which the engine does not trust. Either way no byte of the request reaches the fake Hark.
import http from 'node:http'
import net from 'node:net'
import tls from 'node:tls'
import { createCA, issueServerCert } from './certs.mjs'

/**
 * @param {object} o
 * @param {{cert: object, privateKey: object}} o.ca  the run's CA (from createCA)
 * @param {string} [o.host]        the one host intercepted (default harkstudio.io)
 * @param {number} o.targetPort    where decrypted traffic goes (127.0.0.1)
 * @param {(entry: object) => void} [o.log]
 * @param {boolean} [o.passThrough]
 * @param {number} [o.ttlS]        the proxy closes itself after this many seconds
 * @param {(n: number) => ('refuse' | 'untrusted-cert' | undefined)} [o.connectFault]  what to do with the n-th
 *                                 CONNECT to the host (1-based); undefined: intercept it as usual
 * @returns {Promise<{port: number, close: () => Promise<void>}>}
 */
export async function startTlsProxy({ ca, host = 'harkstudio.io', targetPort, log = () => {}, passThrough = false, port = 0, ttlS = 300, connectFault = startTlsProxy.none }) {
  const leaf = issueServerCert(ca, [host])
  const secureContext = tls.createSecureContext({ cert: leaf.certPem, key: leaf.keyPem })
  let untrusted // a certificate for the host from a CA the session was not given, made up front (a key pair
  // made while a request waits would hold this process's event loop)
  if (connectFault !== startTlsProxy.none) {
    const other = issueServerCert(createCA('hark-memory e2e CA the engine does not trust'), [host])
    untrusted = tls.createSecureContext({ cert: other.certPem, key: other.keyPem })
  }
  let connects = 0
  const sockets = new Set()
  const track = (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); s.on('error', () => {}) }

  const server = http.createServer((req, res) => {
    log({ kind: 'refused', reason: 'plain HTTP proxying', method: req.method, url: req.url })
    res.writeHead(403, { 'content-type': 'text/plain' }).end('e2e proxy: only CONNECT harkstudio.io:443\n')
  })
  server.on('connect', (req, client, head) => {
    track(client)
    const [name, p = '443'] = req.url.split(':')
    if (name === host && p === '443') {
      const n = ++connects
      const fault = connectFault(n)
      if (fault === 'refuse') {
        log({ kind: 'connect', target: req.url, n, fault })
        client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
        return
      }
      log({ kind: 'connect', target: req.url, intercepted: true, n, ...(fault && { fault }) })
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      const context = fault === 'untrusted-cert' ? untrusted : secureContext
      const secure = new tls.TLSSocket(client, { isServer: true, secureContext: context, ALPNProtocols: ['http/1.1'] })
      track(secure)
      if (head?.length) secure.unshift(head)
      secure.on('error', (e) => log({ kind: 'tls-error', target: req.url, error: String(e) }))
      const upstream = net.connect(targetPort, '127.0.0.1')
      track(upstream)
      secure.pipe(upstream).pipe(secure)
      return
    }
    if (passThrough) {
      log({ kind: 'connect', target: req.url, intercepted: false, tunnelled: true })
      const upstream = net.connect(Number(p), name, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        if (head?.length) upstream.write(head)
        upstream.pipe(client).pipe(upstream)
      })
      track(upstream)
      upstream.on('error', () => client.destroy())
      return
    }
    log({ kind: 'refused', reason: 'not the intercepted host', target: req.url })
    client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n')
  })

  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  const close = () => new Promise((resolve) => {
    clearTimeout(ttl)
    for (const s of sockets) s.destroy()
    server.close(() => resolve())
  })
  const ttl = setTimeout(() => { log({ kind: 'ttl-exit' }); close() }, ttlS * 1000)
  ttl.unref()
  return { port: server.address().port, close }
}

/** No connection faults (the default). */
startTlsProxy.none = () => undefined
