package dev.varroa.testfixtures.seaweed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SeaweedS3IdentityTest {

  @Test
  void aPrefixLimitedIdentityMayReadWriteAndListOnlyUnderItsFolder() {
    SeaweedS3Identity pool = SeaweedS3Identity.limitedToPrefix("shared", "varroa-records", "artifacts/eu-1/ci/shared/");
    assertThat(pool.actions()).containsExactly("Read:varroa-records/artifacts/eu-1/ci/shared/*",
        "Write:varroa-records/artifacts/eu-1/ci/shared/*", "List:varroa-records/artifacts/eu-1/ci/shared/*");
    assertThat(pool.accessKeyId()).isNotEqualTo(SeaweedS3Identity.limitedToPrefix("other", "b", "p/").accessKeyId());
  }

  @Test
  void refusesAPrefixThatWouldReachBeyondItsFolder() {
    assertThatThrownBy(() -> SeaweedS3Identity.limitedToPrefix("shared", "b", "artifacts/eu-1/ci/shared"))
        .hasMessageContaining("must be a folder ending in '/'");
    assertThatThrownBy(() -> SeaweedS3Identity.limitedToPrefix("shared", "b", "artifacts/*/"))
        .hasMessageContaining("without wildcards");
  }

  @Test
  void writesTheS3ConfigFileSeaweedFsReads() {
    SeaweedS3Identity admin = new SeaweedS3Identity("core-admin", "AK", "SK", List.of("Admin"));
    assertThat(SeaweedS3ServerProcess.configuration(List.of(admin))).isEqualTo(
        "{\"identities\":[{\"name\":\"core-admin\",\"credentials\":[{\"accessKey\":\"AK\",\"secretKey\":\"SK\"}],"
            + "\"actions\":[\"Admin\"]}]}\n");
    assertThat(admin.toString()).doesNotContain("SK");
  }
}
