package dev.varroa.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.operator.hibernation.HibernationSettings;
import dev.varroa.operator.home.HomeCopySettings;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import dev.varroa.operator.updatecenter.ManagedUpdateCenterSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OperatorSettingsTest {

  @Test
  void anEmptyEnvironmentGivesTheDocumentedDefaults() {
    OperatorSettings settings = OperatorSettings.fromEnv(Map.of(), "varroa-system", Optional.empty());

    assertThat(settings.cacheDirectory()).isEqualTo(Path.of("/var/cache/varroa"));
    assertThat(settings.leaseNamespace()).contains("varroa-system");
    assertThat(settings.plainHttpRegistries()).isEmpty();
    assertThat(settings.clusterName()).isEqualTo(VarroaOperator.LOCAL_CLUSTER_NAME);
    assertThat(settings.httpPort()).isEqualTo(8081);
    assertThat(settings.updateCenters().namespace()).isEqualTo(ManagedUpdateCenterSettings.DEFAULT_NAMESPACE);
    assertThat(settings.controllers().homeCopy()).isEqualTo(HomeCopySettings.defaults());
    assertThat(settings.controllers().installation()).isEqualTo(InstallationDefaults.none());
    assertThat(settings.controllers().hibernation().wakerService())
        .contains(new HibernationSettings.WakerService("varroa-system", HibernationSettings.DEFAULT_WAKER_SERVICE));
  }

  @Test
  void readsEachVariableOnce() {
    OperatorSettings settings = OperatorSettings.fromEnv(Map.of(
        "VARROA_CACHE_DIR", "/tmp/cache",
        "VARROA_LEASE_NAMESPACE", "leases",
        "VARROA_PLAIN_HTTP_REGISTRIES", " registry.local:5000, ,mirror:80 ",
        "VARROA_CLUSTER_NAME", "eu-1",
        "VARROA_HTTP_PORT", "9000",
        "VARROA_UPDATE_CENTER_IMAGE", "example/uc:1",
        "VARROA_HOME_COPY_IMAGE", "example/rsync:1",
        "VARROA_MITE_IMAGE", "example/mite:1"), "team-ops", Optional.empty());

    assertThat(settings.cacheDirectory()).isEqualTo(Path.of("/tmp/cache"));
    assertThat(settings.leaseNamespace()).contains("leases");
    assertThat(settings.plainHttpRegistries()).containsExactlyInAnyOrder("registry.local:5000", "mirror:80");
    assertThat(settings.clusterName()).isEqualTo("eu-1");
    assertThat(settings.httpPort()).isEqualTo(9000);
    assertThat(settings.updateCenters().defaultImage()).isEqualTo("example/uc:1");
    assertThat(settings.controllers().homeCopy().image()).isEqualTo("example/rsync:1");
    assertThat(settings.controllers().installation().miteImage()).isEqualTo("example/mite:1");
  }

  @Test
  void anEmptyLeaseNamespaceRunsWithoutElection() {
    assertThat(OperatorSettings.fromEnv(Map.of("VARROA_LEASE_NAMESPACE", ""), "varroa-system", Optional.empty())
        .leaseNamespace()).isEmpty();
    assertThat(OperatorSettings.defaults(Path.of("cache")).withLeaseNamespace(null).leaseNamespace()).isEmpty();
    assertThat(OperatorSettings.defaults(Path.of("cache")).withLeaseNamespace("ops").leaseNamespace()).contains("ops");
  }

  @Test
  void aBadHttpPortNamesTheVariableAndTheFix() {
    assertThatThrownBy(() -> OperatorSettings.fromEnv(Map.of("VARROA_HTTP_PORT", "web"), "varroa-system",
        Optional.empty())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("VARROA_HTTP_PORT=web").hasMessageContaining("fix:");
  }

  @Test
  void copiesChangeOnlyWhatTheyName() {
    OperatorSettings base = OperatorSettings.defaults(Path.of("cache"));

    OperatorSettings changed = base.withPlainHttpRegistries(Set.of("r:1"));

    assertThat(changed.plainHttpRegistries()).containsExactly("r:1");
    assertThat(changed).isEqualTo(new OperatorSettings(base.cacheDirectory(), base.leaseNamespace(), Set.of("r:1"),
        base.clusterName(), base.httpPort(), base.updateCenters(), base.controllers(), base.cellIsolation()));
  }
}
