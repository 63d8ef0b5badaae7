/**
 * Salt-compatible cryptography: RSA key pairs and their PEM files ({@link io.jsalt.crypto.RsaKeys}), the RSA
 * operations of the wire ({@link io.jsalt.crypto.Rsa}: OAEP, PKCS#1 v1.5 signatures, X9.31 private encryption),
 * the symmetric session cipher ({@link io.jsalt.crypto.Crypticle}) and key fingerprints
 * ({@link io.jsalt.crypto.Fingerprint}). Primitives come from the JDK; BouncyCastle only parses PEM.
 */
package io.jsalt.crypto;
