package dev.varroa.dashboard.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

public class ReturnPathTest {

  /** return_to values as the BFF reads them (the query string already decoded once). */
  public static List<String> offSite() {
    return List.of(
        "//evil.example", "//evil.example/ui/", "/\\evil.example", "\\\\evil.example", "\\/evil.example",
        "/%5Cevil.example", "/%5cevil.example", "%2F%2Fevil.example", "/%2F/evil.example", "/%2f%2fevil.example",
        "/\t/evil.example", "/\n/evil.example", "/\r/evil.example", "/\r\n/evil.example", "\t//evil.example",
        "/%09/evil.example", "/%0A/evil.example", "/%0d/evil.example", "/%00/evil.example", "/%20/evil.example",
        "https://evil.example", "http:evil.example", "HTTPS://evil.example", "javascript:alert(1)",
        "JaVaScRiPt:alert(1)", "data:text/html,<script>alert(1)</script>", "/..//evil.example",
        "/ui/../..//evil.example", "/%2e%2e//evil.example", "/./evil.example", "///evil.example", "////evil.example",
        "/\u3000/evil.example", "/\uFF0F/evil.example", "\uFF0F\uFF0Fevil.example", "/\u2215/evil.example",
        "/\u00a0/evil.example", "/\u0085/evil.example", "@evil.example", "evil.example", " /ui/", "/ui/ ",
        "/%zz", "/%4", "/" + "a".repeat(ReturnPath.MAX_LENGTH));
  }

  @ParameterizedTest
  @MethodSource("offSite")
  void refusesAnythingABrowserCouldReadAsAnotherHost(String returnTo) {
    assertThat(ReturnPath.refusal(returnTo)).as("%s", returnTo).isPresent();
    assertThat(ReturnPath.landing(returnTo)).isEqualTo("/");
  }

  @Test
  void landsOnTheDashboardsOwnPathsWithTheirQuery() {
    for (String path : List.of("/", "/ui/", "/me", "/ui/controllers/eu-1/ci/team-a?tab=runs",
        "/ui/controllers?namespace=team-a&attention=Apply+failed&sort=lastApply&dir=desc",
        "/ui/controllers?q=a%2Fb%5Cc", "/ui/activity?kind=controller.phase_changed#top",
        "/ui/runs/2cefcf29-0000-4000-8000-000000000000", "/ui/controllers?q=%E2%9C%93",
        "/" + "a".repeat(ReturnPath.MAX_LENGTH - 1))) {
      assertThat(ReturnPath.refusal(path)).as("%s", path).isEmpty();
      assertThat(ReturnPath.landing(path)).isEqualTo(path);
    }
  }

  @Test
  void landsOnTheRootWhenNothingWasAsked() {
    assertThat(ReturnPath.landing(null)).isEqualTo("/");
    assertThat(ReturnPath.landing("")).isEqualTo("/");
  }

  @Test
  void saysWhyAPathIsRefused() {
    assertThat(ReturnPath.refusal("/\\evil.example")).hasValue("a backslash at index 1");
    assertThat(ReturnPath.refusal("//evil.example")).hasValue("starts with '//' (another host)");
    assertThat(ReturnPath.refusal("/%2F/evil")).hasValue("an encoded '/' or '\\' in the path");
  }
}
