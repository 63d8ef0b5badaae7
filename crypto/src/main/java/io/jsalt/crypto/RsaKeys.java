package io.jsalt.crypto;

import java.io.IOException;
import java.io.StringReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAKeyGenParameterSpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * RSA key pairs and their PEM files, in the forms Salt reads and writes: the private key as PKCS#1
 * ({@code BEGIN RSA PRIVATE KEY}), the public key as SubjectPublicKeyInfo ({@code BEGIN PUBLIC KEY}).
 */
public final class RsaKeys {
    private static final int KEY_BITS = 2048;
    private static final String PRIVATE_PEM_TYPE = "RSA PRIVATE KEY";
    private static final String PUBLIC_PEM_TYPE = "PUBLIC KEY";
    private static final Set<PosixFilePermission> PRIVATE_MODE = PosixFilePermissions.fromString("r--------");
    private static final Set<PosixFilePermission> PUBLIC_MODE = PosixFilePermissions.fromString("rw-r--r--");
    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    private static final Pattern KEY_NAME = Pattern.compile("[A-Za-z0-9_@-][A-Za-z0-9._@-]{0,254}");

    private RsaKeys() {
    }

    /** A fresh 2048-bit key pair with e = 65537, as Salt's {@code gen_keys}. */
    public static KeyPair generate() {
        return generate(KEY_BITS);
    }

    /** A fresh key pair of {@code bits} (at least 2048, Salt's minimum) with e = 65537. */
    public static KeyPair generate(int bits) {
        if (bits < KEY_BITS) {
            throw new CryptoException("an RSA key of " + bits + " bits is too small: at least " + KEY_BITS);
        }
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(new RSAKeyGenParameterSpec(bits, RSAKeyGenParameterSpec.F4));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new CryptoException("cannot generate an RSA key pair", e);
        }
    }

    /** PKCS#1 PEM ({@code -----BEGIN RSA PRIVATE KEY-----}), byte-identical to what Salt writes. */
    public static String privateKeyPem(PrivateKey key) {
        if (!(key instanceof RSAPrivateKey) || !"PKCS#8".equals(key.getFormat()) || key.getEncoded() == null) {
            throw new CryptoException("not an exportable RSA private key");
        }
        Optional<byte[]> plain = PlainRsaPem.pkcs1Of(key.getEncoded());
        if (plain.isPresent()) {
            return PemArmor.armor(PRIVATE_PEM_TYPE, plain.get());
        }
        try {
            byte[] pkcs1 = PrivateKeyInfo.getInstance(key.getEncoded())
                    .parsePrivateKey().toASN1Primitive().getEncoded(ASN1Encoding.DER);
            return PemArmor.armor(PRIVATE_PEM_TYPE, pkcs1);
        } catch (IOException | RuntimeException e) {
            throw new CryptoException("cannot encode the RSA private key", e);
        }
    }

    /** SubjectPublicKeyInfo PEM ({@code -----BEGIN PUBLIC KEY-----}), byte-identical to what Salt writes. */
    public static String publicKeyPem(PublicKey key) {
        if (!(key instanceof RSAPublicKey) || !"X.509".equals(key.getFormat()) || key.getEncoded() == null) {
            throw new CryptoException("not an exportable RSA public key");
        }
        return PemArmor.armor(PUBLIC_PEM_TYPE, key.getEncoded());
    }

    /** Reads {@code BEGIN PUBLIC KEY} (SPKI) or {@code BEGIN RSA PUBLIC KEY} (PKCS#1). */
    public static PublicKey parsePublicKey(String pem) {
        Optional<PublicKey> plain = PlainRsaPem.publicKey(pem);
        if (plain.isPresent()) {
            return plain.get();
        }
        Object parsed = readPem(pem);
        if (!(parsed instanceof SubjectPublicKeyInfo)) {
            throw new CryptoException("not a PEM public key: " + describe(parsed));
        }
        try {
            PublicKey key = new JcaPEMKeyConverter().getPublicKey((SubjectPublicKeyInfo) parsed);
            if (!(key instanceof RSAPublicKey)) {
                throw new CryptoException("not an RSA public key: " + key.getAlgorithm());
            }
            return key;
        } catch (IOException | RuntimeException e) {
            throw rethrow("cannot decode the public key", e);
        }
    }

    /** Reads {@code BEGIN RSA PRIVATE KEY} (PKCS#1) or an unencrypted {@code BEGIN PRIVATE KEY} (PKCS#8). */
    public static PrivateKey parsePrivateKey(String pem) {
        Optional<PrivateKey> plain = PlainRsaPem.privateKey(pem);
        if (plain.isPresent()) {
            return plain.get();
        }
        Object parsed = readPem(pem);
        try {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            PrivateKey key;
            if (parsed instanceof PEMKeyPair) {
                key = converter.getPrivateKey(((PEMKeyPair) parsed).getPrivateKeyInfo());
            } else if (parsed instanceof PrivateKeyInfo) {
                key = converter.getPrivateKey((PrivateKeyInfo) parsed);
            } else {
                throw new CryptoException("not an unencrypted PEM private key: " + describe(parsed));
            }
            if (!(key instanceof RSAPrivateKey)) {
                throw new CryptoException("not an RSA private key: " + key.getAlgorithm());
            }
            return key;
        } catch (IOException | RuntimeException e) {
            throw rethrow("cannot decode the private key", e);
        }
    }

    /** The public half of a private key that carries its CRT parameters (every key Salt or we write does). */
    public static PublicKey publicKeyOf(PrivateKey key) {
        if (!(key instanceof RSAPrivateCrtKey)) {
            throw new CryptoException("the public key can only be derived from an RSA CRT private key");
        }
        RSAPrivateCrtKey crt = (RSAPrivateCrtKey) key;
        BigInteger exponent = crt.getPublicExponent();
        if (exponent == null || exponent.signum() <= 0) {
            throw new CryptoException("the private key carries no public exponent");
        }
        try {
            return KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(crt.getModulus(), exponent));
        } catch (GeneralSecurityException e) {
            throw new CryptoException("cannot derive the public key", e);
        }
    }

    public static PublicKey readPublicKey(Path file) {
        return parsePublicKey(readText(file));
    }

    /** Loads a private key PEM file and derives its public half. */
    public static KeyPair readKeyPair(Path pemFile) {
        PrivateKey privateKey = parsePrivateKey(readText(pemFile));
        return new KeyPair(publicKeyOf(privateKey), privateKey);
    }

    /** Writes the public key PEM with mode 0644, atomically. */
    public static void writePublicKey(Path file, PublicKey key) {
        AtomicFile.write(file, publicKeyPem(key).getBytes(StandardCharsets.US_ASCII), PUBLIC_MODE);
    }

    /**
     * Loads {@code dir/name.pem} (rewriting a missing {@code dir/name.pub}), or generates a pair and writes both:
     * the private key with mode 0400, the public key with 0644. Creates {@code dir} with mode 0700 if missing.
     */
    public static KeyPair loadOrCreate(Path dir, String name) {
        return loadOrCreate(dir, name, KEY_BITS);
    }

    /** {@link #loadOrCreate(Path, String)}, generating a key of {@code bits} when there is none (salt-key --keysize). */
    public static KeyPair loadOrCreate(Path dir, String name, int bits) {
        if (name == null || !KEY_NAME.matcher(name).matches()) {
            throw new CryptoException("invalid key name: " + name);
        }
        createDirectory(dir);
        Path pem = dir.resolve(name + ".pem");
        Path pub = dir.resolve(name + ".pub");
        if (Files.exists(pem)) {
            KeyPair pair = readKeyPair(pem);
            if (!Files.exists(pub)) {
                writePublicKey(pub, pair.getPublic());
            }
            return pair;
        }
        KeyPair pair = generate(bits);
        // the private key first: if we stop in between, the next start finds it and rewrites the .pub
        AtomicFile.write(pem, privateKeyPem(pair.getPrivate()).getBytes(StandardCharsets.US_ASCII), PRIVATE_MODE);
        writePublicKey(pub, pair.getPublic());
        return pair;
    }

    private static void createDirectory(Path dir) {
        if (Files.isDirectory(dir)) {
            return;
        }
        try {
            if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIR_MODE));
            } else {
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new CryptoException("cannot create key directory " + dir, e);
        }
    }

    private static String readText(Path file) {
        try {
            // PEM is ASCII; Latin-1 never fails to decode, so garbage surfaces as a PEM error naming the problem
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new CryptoException("cannot read key file " + file, e);
        }
    }

    private static Object readPem(String pem) {
        if (pem == null) {
            throw new CryptoException("no PEM text");
        }
        try (PEMParser parser = new PEMParser(new StringReader(pem.strip()))) {
            Object parsed = parser.readObject();
            if (parsed == null) {
                throw new CryptoException("no PEM object found");
            }
            return parsed;
        } catch (IOException | RuntimeException e) {
            throw rethrow("malformed PEM", e);
        }
    }

    private static String describe(Object parsed) {
        return parsed.getClass().getSimpleName();
    }

    private static CryptoException rethrow(String message, Exception e) {
        if (e instanceof CryptoException) {
            return (CryptoException) e;
        }
        return new CryptoException(message + ": " + e.getMessage(), e);
    }
}
