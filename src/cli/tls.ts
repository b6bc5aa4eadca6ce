import { createPrivateKey, X509Certificate, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { log } from "../log";
import { CommandError } from "./errors";

/**
 * The certificate and key `parley serve` serves HTTPS with, read and checked before it starts,
 * so that a wrong path, a file of the wrong kind or a key of another certificate is refused with
 * a message naming the file rather than an OpenSSL code.
 */
export function loadTls(certPath: string, keyPath: string): { cert: string; key: string } {
  const cert = readPem(certPath, "certificate", "--tls-cert or PARLEY_TLS_CERT");
  const key = readPem(keyPath, "key", "--tls-key or PARLEY_TLS_KEY");
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    throw new CommandError(`The TLS certificate file '${certPath}' holds no PEM certificate (a file starting with -----BEGIN CERTIFICATE-----, such as a fullchain.pem).`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    const encrypted = /ENCRYPTED/.test(key);
    throw new CommandError(
      encrypted
        ? `The TLS key file '${keyPath}' holds an encrypted key; give the key without a passphrase (e.g. 'openssl pkey -in ${keyPath} -out key.pem').`
        : `The TLS key file '${keyPath}' holds no PEM private key (a file starting with -----BEGIN PRIVATE KEY----- or similar, such as a privkey.pem).`,
    );
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new CommandError(`The TLS key in '${keyPath}' does not belong to the certificate in '${certPath}'; give the key the certificate was issued for.`);
  }
  const now = Date.now();
  if (certificate.validToDate.getTime() < now) log.warn(`The TLS certificate in '${certPath}' expired on ${certificate.validToDate.toISOString()}; browsers will refuse it until it is renewed and Parley restarted.`);
  else if (certificate.validFromDate.getTime() > now) log.warn(`The TLS certificate in '${certPath}' is not valid before ${certificate.validFromDate.toISOString()}.`);
  return { cert, key };
}

function readPem(path: string, what: "certificate" | "key", setting: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason =
      code === "ENOENT" ? "does not exist" : code === "EACCES" || code === "EPERM" ? "cannot be read (permission denied)" : code === "EISDIR" ? "is a directory, not a file" : `cannot be read (${(error as Error).message})`;
    throw new CommandError(`The TLS ${what} file '${path}' ${reason}; check ${setting}.`);
  }
}
