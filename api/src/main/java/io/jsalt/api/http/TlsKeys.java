package io.jsalt.api.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * salt-api's {@code ssl_crt} / {@code ssl_key}: a PEM certificate (chain) and its unencrypted PEM private key
 * (RSA or EC; PKCS#1, SEC1 or PKCS#8, as openssl and Salt's {@code tls.create_self_signed_cert} write them),
 * turned into the in-memory key store Jetty serves TLS from. A file that cannot be read or parsed, or a key
 * that is encrypted, is an IllegalArgumentException naming the file.
 */
public final class TlsKeys {
    /** The in-memory key store's password: it never leaves this process. */
    static final char[] STORE_PASSWORD = "jsalt-api".toCharArray();

    private TlsKeys() {}

    public static KeyStore load(Path crt, Path key) {
        Certificate[] chain;
        try (InputStream in = Files.newInputStream(crt)) {
            Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certs.isEmpty()) {
                throw new IllegalArgumentException("ssl_crt " + crt + " holds no certificate");
            }
            chain = certs.toArray(new Certificate[0]);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("ssl_crt " + crt + " cannot be read as a PEM certificate: " + e.getMessage(), e);
        }
        PrivateKey privateKey = privateKey(key);
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("jsalt-api", privateKey, STORE_PASSWORD, chain);
            return store;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("ssl_key " + key + " does not go with ssl_crt " + crt + ": " + e.getMessage(), e);
        }
    }

    private static PrivateKey privateKey(Path key) {
        Object parsed;
        try (Reader reader = Files.newBufferedReader(key); PEMParser pem = new PEMParser(reader)) {
            parsed = pem.readObject();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("ssl_key " + key + " cannot be read as a PEM private key: " + e.getMessage(), e);
        }
        try {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            if (parsed instanceof PEMKeyPair pair) {
                return converter.getPrivateKey(pair.getPrivateKeyInfo());
            }
            if (parsed instanceof PrivateKeyInfo info) {
                return converter.getPrivateKey(info);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("ssl_key " + key + ": " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("ssl_key " + key + " is not an unencrypted PEM private key (RSA or EC)");
    }
}
