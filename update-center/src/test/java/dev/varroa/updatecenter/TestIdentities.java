package dev.varroa.updatecenter;

import java.time.Duration;

/** Signing identities made once per test JVM: an RSA key takes a moment to generate. */
final class TestIdentities {
  static final SigningIdentity VARROA = SigningIdentity.generate("Varroa test update center", Duration.ofDays(30));
  static final SigningIdentity OTHER = SigningIdentity.generate("Someone else's update center", Duration.ofDays(30));

  private TestIdentities() {}
}
