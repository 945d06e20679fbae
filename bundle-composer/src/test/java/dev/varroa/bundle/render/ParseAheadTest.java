package dev.varroa.bundle.render;

import static dev.varroa.bundle.render.TestBundles.git;
import static dev.varroa.bundle.render.TestBundles.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.ResolvedInput;
import org.junit.jupiter.api.Test;

/** Parsing inputs ahead of the render (as the composer does after each fetch) changes nothing the render gives. */
class ParseAheadTest {
  private static ResolvedInput base() {
    return git(0, "jcasc/00.yaml", "jenkins:\n  systemMessage: base\n  numExecutors: 0\n",
        "plugins.yaml", "plugins:\n  - id: git\n    version: \"5.7.0\"\n", "variables.yaml", "variables: {ORG: acme}\n");
  }

  private static ResolvedInput team() {
    return git(1, "jcasc/10.yaml", "jenkins:\n  systemMessage: \"team ${ORG}\"\n");
  }

  @Test
  void rendersTheSameBytesWhenInputsWereParsedAhead() throws BundleException {
    RenderedBundle parsedInRender = new BundleRenderer().render(request(base(), team()));
    BundleRenderer renderer = new BundleRenderer();
    ResolvedInput base = base();
    ResolvedInput team = team();

    renderer.parseAhead(base);
    renderer.parseAhead(team);
    RenderedBundle parsedAhead = renderer.render(request(base, team));

    assertThat(parsedAhead).isEqualTo(parsedInRender);
    assertThat(parsedAhead.digest()).isEqualTo(parsedInRender.digest());
  }

  @Test
  void leavesTheReportOfABrokenFileToTheRender() {
    BundleRenderer renderer = new BundleRenderer();
    ResolvedInput broken = git(0, "jcasc/00.yaml", "jenkins: [unclosed\n");

    renderer.parseAhead(broken);

    assertThatThrownBy(() -> renderer.render(request(broken)))
        .isInstanceOfSatisfying(BundleException.class, e -> assertThat(e.problems())
            .extracting(BundleProblem::file).containsExactly("jcasc/00.yaml"));
  }
}
