package dev.varroa.operator.render.resolve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The operator's Jenkins login settings from its environment (chart: jenkinsLogin.*). */
class JenkinsLoginTest {
  @Test
  void noIssuerMeansNoRealm() {
    assertThat(JenkinsLogin.fromEnv(Map.of())).isEmpty();
    assertThat(JenkinsLogin.fromEnv(Map.of("VARROA_JENKINS_OIDC_ISSUER", "  "))).isEmpty();
  }

  @Test
  void takesTheDashboardsClaimsByDefault() {
    JenkinsLogin login = JenkinsLogin.fromEnv(Map.of("VARROA_JENKINS_OIDC_ISSUER", "https://dex.example.com/dex/"))
        .orElseThrow();

    assertThat(login).isEqualTo(new JenkinsLogin("https://dex.example.com/dex/", "varroa-jenkins", "email", "groups",
        "openid profile email groups"));
    assertThat(login.wellKnownUrl()).isEqualTo("https://dex.example.com/dex/.well-known/openid-configuration");
  }

  @Test
  void keepsAWellKnownUrlAsGiven() {
    assertThat(JenkinsLogin.fromEnv(Map.of("VARROA_JENKINS_OIDC_ISSUER",
        "https://idp.example.com/.well-known/openid-configuration")).orElseThrow().wellKnownUrl())
        .isEqualTo("https://idp.example.com/.well-known/openid-configuration");
  }

  @Test
  void refusesAnIssuerThatIsNotAnHttpUrlNamingTheVariableAndValue() {
    assertThatThrownBy(() -> JenkinsLogin.fromEnv(Map.of("VARROA_JENKINS_OIDC_ISSUER", "dex.example.com")))
        .hasMessageContaining("VARROA_JENKINS_OIDC_ISSUER").hasMessageContaining("jenkinsLogin.issuer")
        .hasMessageContaining("'dex.example.com'").hasMessageContaining("fix:");
  }

  @Test
  void refusesTheRetiredClientSecretVariablesNamingTheFix() {
    for (String retired : List.of("VARROA_JENKINS_OIDC_CLIENT_SECRET_NAME", "VARROA_JENKINS_OIDC_CLIENT_SECRET_KEY")) {
      assertThatThrownBy(() -> JenkinsLogin.fromEnv(Map.of("VARROA_JENKINS_OIDC_ISSUER", "https://dex.example.com/dex",
          retired, "varroa-jenkins-oidc")))
          .hasMessageContaining(retired).hasMessageContaining("public OIDC client with PKCE")
          .hasMessageContaining("fix: unset " + retired).hasMessageContaining("jenkinsLogin.clientSecret");
    }
  }
}
