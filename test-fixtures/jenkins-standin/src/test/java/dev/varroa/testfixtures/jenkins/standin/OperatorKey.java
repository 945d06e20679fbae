package dev.varroa.testfixtures.jenkins.standin;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.UUID;

/** An ES256 key pair playing the operator's: its public half as the PEM the pod mounts, tokens as the operator mints. */
final class OperatorKey {

    private final KeyPair pair;

    OperatorKey() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        this.pair = generator.generateKeyPair();
    }

    void writePublicPem(Path file) throws IOException {
        String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(pair.getPublic().getEncoded());
        Files.writeString(file, "-----BEGIN PUBLIC KEY-----\n" + body + "\n-----END PUBLIC KEY-----\n");
    }

    /** A token for the mite of {@code audience} (spiffe://varroa.dev/ns/.../controller/.../uid/...), valid 10 minutes. */
    String token(String audience) throws JOSEException {
        Instant now = Instant.now();
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer("varroa-operator").subject("mite").audience(audience)
                .issueTime(Date.from(now)).notBeforeTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(600)))
                .jwtID(UUID.randomUUID().toString()).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.ES256), claims);
        jwt.sign(new ECDSASigner((ECPrivateKey) pair.getPrivate()));
        return jwt.serialize();
    }
}
