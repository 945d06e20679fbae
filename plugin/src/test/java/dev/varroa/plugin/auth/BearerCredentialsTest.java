package dev.varroa.plugin.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BearerCredentialsTest {

  @Test
  void extractsTokenWhateverTheSchemeCase() {
    assertThat(BearerCredentials.fromAuthorizationHeader("Bearer abc.def.ghi")).contains(new BearerCredentials("abc.def.ghi"));
    assertThat(BearerCredentials.fromAuthorizationHeader("bearer abc.def.ghi")).contains(new BearerCredentials("abc.def.ghi"));
    assertThat(BearerCredentials.fromAuthorizationHeader("BEARER abc.def.ghi")).contains(new BearerCredentials("abc.def.ghi"));
  }

  @Test
  void trimsAroundSchemeAndToken() {
    assertThat(BearerCredentials.fromAuthorizationHeader("  Bearer    abc.def.ghi  ")).contains(new BearerCredentials("abc.def.ghi"));
  }

  @Test
  void findsNoTokenInAbsentBlankOrOtherSchemes() {
    assertThat(BearerCredentials.fromAuthorizationHeader(null)).isEmpty();
    assertThat(BearerCredentials.fromAuthorizationHeader("   ")).isEmpty();
    assertThat(BearerCredentials.fromAuthorizationHeader("Bearer")).isEmpty();
    assertThat(BearerCredentials.fromAuthorizationHeader("Bearer    ")).isEmpty();
    assertThat(BearerCredentials.fromAuthorizationHeader("Basic dXNlcjpwYXNz")).isEmpty();
    assertThat(BearerCredentials.fromAuthorizationHeader("Bearerabc.def.ghi")).isEmpty();
  }

  @Test
  void neverShowsTheTokenInToString() {
    assertThat(new BearerCredentials("abc.def.ghi").toString()).doesNotContain("abc.def.ghi");
  }
}
