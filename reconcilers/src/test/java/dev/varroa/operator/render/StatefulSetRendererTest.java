package dev.varroa.operator.render;

import static dev.varroa.operator.render.RenderFixtures.YAML;
import static dev.varroa.operator.render.RenderFixtures.controller;
import static dev.varroa.operator.render.RenderFixtures.input;
import static dev.varroa.operator.render.RenderFixtures.profile;
import static dev.varroa.operator.render.RenderFixtures.profileWithGit;
import static dev.varroa.operator.render.RenderFixtures.resolved;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class StatefulSetRendererTest {
  private static StatefulSet render(String controllerSpec) {
    return StatefulSetRenderer.render(input(controllerSpec));
  }

  private static PodSpec pod(StatefulSet sts) {
    return sts.getSpec().getTemplate().getSpec();
  }

  private static Container container(List<Container> containers, String name) {
    return containers.stream().filter(c -> c.getName().equals(name)).findFirst().orElseThrow();
  }

  private static Map<String, String> mounts(Container container) {
    return container.getVolumeMounts().stream().collect(Collectors.toMap(VolumeMount::getName, VolumeMount::getMountPath));
  }

  private static Map<String, String> env(Container container) {
    return container.getEnv().stream().filter(e -> e.getValue() != null)
        .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue, (a, b) -> b));
  }

  @Test
  void rendersOneReplicaNamedAfterNameAndUid() {
    StatefulSet sts = render("");

    assertThat(sts.getMetadata().getName()).isEqualTo("team-a-1b4e28ba");
    assertThat(sts.getMetadata().getNamespace()).isEqualTo("ci");
    assertThat(sts.getMetadata().getOwnerReferences()).isEmpty();
    assertThat(sts.getSpec().getReplicas()).isEqualTo(1);
    assertThat(sts.getSpec().getServiceName()).isEqualTo("team-a-1b4e28ba");
    assertThat(sts.getSpec().getSelector().getMatchLabels())
        .containsEntry("app.kubernetes.io/instance", "team-a").containsEntry("varroa.dev/controller", "team-a");
    assertThat(sts.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "varroa")
        .containsEntry("app.kubernetes.io/name", "jenkins");
  }

  @Test
  void scalesToZeroWhenStopped() {
    assertThat(render("powerState: Stopped\n").getSpec().getReplicas()).isZero();
  }

  @Test
  void scalesToZeroWhenParkedAndKeepsThePodTemplateAndHome() {
    StatefulSet awake = StatefulSetRenderer.render(RenderFixtures.input(""));
    StatefulSet parked = StatefulSetRenderer.render(RenderFixtures.input("").withParking(new Parking(true, true)));
    StatefulSet waking = StatefulSetRenderer.render(RenderFixtures.input("").withParking(new Parking(false, true)));

    assertThat(parked.getSpec().getReplicas()).isZero();
    assertThat(waking.getSpec().getReplicas()).isEqualTo(1);
    assertThat(parked.getSpec().getTemplate()).as("waking is no roll").isEqualTo(awake.getSpec().getTemplate());
    assertThat(parked.getSpec().getVolumeClaimTemplates()).isEqualTo(awake.getSpec().getVolumeClaimTemplates());
    assertThat(parked.getSpec().getPersistentVolumeClaimRetentionPolicy().getWhenScaled()).isEqualTo("Retain");
  }

  @Test
  void keepsJenkinsHomeOnVolumeClaimTemplate() {
    StatefulSet sts = render("persistence: {size: 50Gi, storageClassName: fast-ssd}\n");

    assertThat(sts.getSpec().getVolumeClaimTemplates()).singleElement().satisfies(claim -> {
      assertThat(claim.getMetadata().getName()).isEqualTo("jenkins-home");
      assertThat(claim.getSpec().getResources().getRequests().get("storage").toString()).isEqualTo("50Gi");
      assertThat(claim.getSpec().getStorageClassName()).isEqualTo("fast-ssd");
      assertThat(claim.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
    });
    assertThat(sts.getSpec().getPersistentVolumeClaimRetentionPolicy().getWhenScaled()).isEqualTo("Retain");
    assertThat(mounts(container(pod(sts).getContainers(), "jenkins")))
        .containsEntry("jenkins-home", "/var/jenkins_home");
  }

  @Test
  void rendersDefaultVolumeSizeWithoutStorageClass() {
    assertThat(render("").getSpec().getVolumeClaimTemplates().get(0).getSpec()).satisfies(spec -> {
      assertThat(spec.getResources().getRequests().get("storage").toString()).isEqualTo("20Gi");
      assertThat(spec.getStorageClassName()).isNull();
    });
  }

  @Test
  void rendersJenkinsContainerWithProfileImagePortsAndEnvironment() {
    Container jenkins = container(pod(render("jenkins: {javaOpts: -Xmx2g, env: [{name: TZ, value: Europe/Berlin}]}\n"))
        .getContainers(), "jenkins");

    assertThat(jenkins.getImage()).isEqualTo("jenkins/jenkins:2.555.2-lts-jdk21");
    assertThat(jenkins.getPorts()).extracting(p -> p.getName() + "=" + p.getContainerPort())
        .containsExactly("http=8080", "agent=50000");
    assertThat(env(jenkins)).containsKeys(JenkinsEnvironment.VARIABLES.toArray(String[]::new))
        .containsEntry("CASC_JENKINS_CONFIG", "/var/jenkins_home/casc")
        .containsEntry("JENKINS_URL", "http://team-a-1b4e28ba.ci.svc:8080/")
        .containsEntry("CONTROLLER_NAME", "team-a")
        .containsEntry("CONTROLLER_NAMESPACE", "ci")
        .containsEntry("AGENTS_NAMESPACE", "ci-jobs")
        .containsEntry("TZ", "Europe/Berlin");
    assertThat(env(jenkins).get("JAVA_OPTS")).startsWith("-Djenkins.install.runSetupWizard=false").endsWith(" -Xmx2g");
  }

  @Test
  void usesJenkinsImageOverrideAndIngressUrl() {
    Container jenkins = container(pod(render("""
        jenkins: {image: registry.example.com/jenkins:custom, imagePullPolicy: Always}
        ingress: {enabled: true, host: jenkins.example.com, tls: {secretName: tls}}
        """)).getContainers(), "jenkins");

    assertThat(jenkins.getImage()).isEqualTo("registry.example.com/jenkins:custom");
    assertThat(jenkins.getImagePullPolicy()).isEqualTo("Always");
    assertThat(env(jenkins)).containsEntry("JENKINS_URL", "https://jenkins.example.com/");
  }

  @Test
  void probesJenkinsOnLogin() {
    Container jenkins = container(pod(render("")).getContainers(), "jenkins");

    for (var probe : List.of(jenkins.getStartupProbe(), jenkins.getReadinessProbe(), jenkins.getLivenessProbe())) {
      assertThat(probe.getHttpGet().getPath()).isEqualTo("/login");
      assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("http");
    }
  }

  @Test
  void feedsCascFolderFromTheMiteSeededByTheRenderedConfigMap() {
    PodSpec pod = pod(render(""));

    assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("jenkins-casc")).singleElement()
        .satisfies(v -> assertThat(v.getEmptyDir()).isNotNull());
    assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("jenkins-casc-rendered")).singleElement()
        .satisfies(v -> assertThat(v.getConfigMap().getName()).isEqualTo("team-a-1b4e28ba-casc"));
    assertThat(container(pod.getContainers(), "jenkins").getVolumeMounts())
        .filteredOn(m -> m.getName().equals("jenkins-casc")).singleElement()
        .satisfies(m -> assertThat(m.getReadOnly()).isTrue());
    Container mite = container(pod.getInitContainers(), "mite");
    assertThat(mounts(mite)).containsEntry("jenkins-casc", "/var/varroa/casc")
        .containsEntry("jenkins-casc-rendered", "/var/varroa/casc-rendered");
    assertThat(env(mite)).containsEntry("VARROA_CASC_DIR", "/var/varroa/casc")
        .containsEntry("VARROA_CASC_SEED_DIR", "/var/varroa/casc-rendered");
  }

  @Test
  void givesTheMiteItsBootstrapTokenCaAndIdentityVolumeAndJenkinsTheVerificationKey() {
    PodSpec pod = pod(render(""));

    Container mite = container(pod.getInitContainers(), "mite");
    assertThat(env(mite)).containsEntry("VARROA_CONTROLLER_UID", "1b4e28ba-2fa1-11d2-883f-0016d3cca427")
        .containsEntry("VARROA_GATEWAY_ENDPOINT", "varroa-gateway.varroa-system.svc:9090")
        .containsEntry("VARROA_BOOTSTRAP_TOKEN_FILE", "/var/run/varroa-bootstrap/token")
        .containsEntry("VARROA_CA_FILE", "/var/run/varroa-bootstrap/ca.crt")
        .containsEntry("VARROA_IDENTITY_DIR", "/var/run/varroa-mite");
    assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("varroa-mite-identity")).singleElement()
        .satisfies(v -> assertThat(v.getEmptyDir().getMedium()).isEqualTo("Memory"));
    assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("varroa-mite-bootstrap")).singleElement()
        .satisfies(v -> assertThat(v.getProjected().getSources()).satisfiesExactly(
            s -> assertThat(s.getSecret().getName()).isEqualTo("team-a-1b4e28ba-mite-token"),
            s -> assertThat(s.getConfigMap().getName()).isEqualTo("team-a-1b4e28ba-channel")));
    Container jenkins = container(pod.getContainers(), "jenkins");
    assertThat(mounts(jenkins)).containsEntry("varroa-jwt", "/var/run/varroa-jwt").doesNotContainKey("varroa-mite-identity")
        .doesNotContainKey("varroa-mite-bootstrap");
    assertThat(env(jenkins)).containsEntry("VARROA_JWT_PUBLIC_KEY_FILE", "/var/run/varroa-jwt/public.pem")
        .containsEntry("VARROA_CONTROLLER_UID", "1b4e28ba-2fa1-11d2-883f-0016d3cca427");
  }

  @Test
  void rollsThePodWhenTheGatewayCaOrEndpointChangesButNotForTheVerificationKey() {
    RenderInput base = RenderFixtures.input(RenderFixtures.resolved(RenderFixtures.controller("")), "", RenderFixtures.profile(),
        java.util.Optional.empty(), java.util.List.of());
    String hash = RestartHash.of(base);
    assertThat(RestartHash.of(withChannel(base, new ChannelEndpoint("gw-2:9090", "", "")))).isNotEqualTo(hash);
    assertThat(RestartHash.of(withChannel(base, new ChannelEndpoint(ChannelEndpoint.DEFAULT_GATEWAY_ENDPOINT,
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n", "")))).isNotEqualTo(hash);
    assertThat(RestartHash.of(withChannel(base, new ChannelEndpoint(ChannelEndpoint.DEFAULT_GATEWAY_ENDPOINT, "",
        "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----\n")))).isEqualTo(hash);
  }

  private static RenderInput withChannel(RenderInput input, ChannelEndpoint channel) {
    return new RenderInput(input.controller(), input.profile(), input.bundle(), input.updateCenter(),
        input.podTemplates(), channel);
  }

  @Test
  void rendersMiteAsNativeSidecarSharingLoopbackAndSecretFiles() {
    PodSpec pod = pod(render("miteSpec: {image: ghcr.io/varroa/mite:9.9.9, resources: {limits: {memory: 128Mi}}}\n"));
    Container mite = pod.getInitContainers().get(0);
    Container jenkins = container(pod.getContainers(), "jenkins");

    assertThat(mite.getName()).isEqualTo("mite");
    assertThat(mite.getRestartPolicy()).isEqualTo("Always");
    assertThat(mite.getImage()).isEqualTo("ghcr.io/varroa/mite:9.9.9");
    assertThat(mite.getResources().getLimits().get("memory").toString()).isEqualTo("128Mi");
    assertThat(mounts(mite)).containsEntry("varroa-loopback", "/var/run/varroa").containsEntry("varroa-secrets", "/run/secrets");
    assertThat(mounts(jenkins)).containsEntry("varroa-loopback", "/var/run/varroa").containsEntry("varroa-secrets", "/run/secrets");
    Map<String, Volume> volumes = pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
    assertThat(volumes.get("varroa-loopback").getEmptyDir()).isNotNull();
    assertThat(volumes.get("varroa-secrets").getEmptyDir().getMedium()).isEqualTo("Memory");
  }

  @Test
  void holdsJenkinsBackUntilMiteIsReadyOrTheBoundedWaitPasses() {
    Container mite = pod(render("")).getInitContainers().get(0);

    assertThat(mite.getStartupProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(mite.getStartupProbe().getHttpGet().getPort().getStrVal()).isEqualTo(MiteSidecar.HEALTH_PORT_NAME);
    assertThat(mite.getStartupProbe().getFailureThreshold() * mite.getStartupProbe().getPeriodSeconds())
        .isGreaterThan(MiteSidecar.STARTUP_WAIT_SECONDS);
    assertThat(env(mite)).containsEntry(MiteSidecar.ENV_STARTUP_WAIT_SECONDS, "600")
        .containsEntry(MiteSidecar.ENV_DRAIN_TIMEOUT_SECONDS, "900");
  }

  @Test
  void installsLockedPluginsFromDefaultUpdateSite() {
    PodSpec pod = pod(render(""));
    Container plugins = pod.getInitContainers().get(1);

    assertThat(plugins.getName()).isEqualTo("plugins");
    assertThat(plugins.getImage()).isEqualTo("jenkins/jenkins:2.555.2-lts-jdk21");
    assertThat(plugins.getCommand()).containsExactly("jenkins-plugin-cli");
    assertThat(String.join(" ", plugins.getArgs()))
        .contains("--plugin-file /var/varroa/plugins/plugins.txt")
        .contains("--plugin-download-directory /var/jenkins_home/plugins")
        .contains("--latest false")
        .doesNotContain("--jenkins-update-center");
    assertThat(mounts(plugins)).containsEntry("jenkins-plugins", "/var/varroa/plugins")
        .containsEntry("jenkins-home", "/var/jenkins_home");
    assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("jenkins-plugins")).singleElement()
        .satisfies(v -> assertThat(v.getConfigMap().getName()).isEqualTo("team-a-1b4e28ba-plugins"));
  }

  @Test
  void installsPluginsFromNamedUpdateCenter() {
    RenderInput input = input(resolved(controller("")), RenderFixtures.JCASC, profile(),
        Optional.of(RenderFixtures.updateCenter()), List.of());
    Container plugins = StatefulSetRenderer.render(input).getSpec().getTemplate().getSpec().getInitContainers().get(1);

    assertThat(plugins.getArgs()).containsSequence("--jenkins-update-center", "https://uc.example.com/update-center.json");
    assertThat(env(plugins)).containsEntry("JENKINS_UC_DOWNLOAD_URL", "https://uc.example.com/download/plugins");
  }

  @Test
  void installsFromAManagedUpdateCenterItsServiceUrlsAndTrustsItsSigningCa() {
    RenderInput input = input(resolved(controller("")), RenderFixtures.JCASC, profile(),
        Optional.of(RenderFixtures.managedUpdateCenter("git:5.8.0")), List.of());
    PodSpec pod = StatefulSetRenderer.render(input).getSpec().getTemplate().getSpec();
    Container plugins = pod.getInitContainers().get(1);
    Container jenkins = container(pod.getContainers(), "jenkins");

    assertThat(plugins.getArgs())
        .containsSequence("--jenkins-update-center", "http://varroa-uc-default.varroa-system.svc/update-center.json")
        .containsSequence("--jenkins-plugin-info", "http://varroa-uc-default.varroa-system.svc/plugin-versions.json");
    assertThat(env(plugins)).containsEntry("JENKINS_UC_DOWNLOAD_URL",
        "http://varroa-uc-default.varroa-system.svc/download/plugins");
    assertThat(env(jenkins).get("JAVA_OPTS"))
        .contains("-Dhudson.model.UpdateCenter.updateCenterUrl=http://varroa-uc-default.varroa-system.svc/");
    assertThat(mounts(jenkins)).containsEntry("update-center-ca", "/var/jenkins_home/update-center-rootCAs");
    assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("update-center-ca")).singleElement()
        .satisfies(v -> assertThat(v.getConfigMap().getName()).isEqualTo("team-a-1b4e28ba-update-center-ca"));
    assertThat(ControllerObjects.render(input)).filteredOn(o -> o.getMetadata().getName()
        .equals("team-a-1b4e28ba-update-center-ca")).singleElement()
        .satisfies(o -> assertThat(((io.fabric8.kubernetes.api.model.ConfigMap) o).getData())
            .containsKey("varroa-update-center.crt"));
  }

  @Test
  void anExternalUpdateCenterGetsNoCaMountAndNoJenkinsUpdateSiteOption() {
    RenderInput input = input(resolved(controller("")), RenderFixtures.JCASC, profile(),
        Optional.of(RenderFixtures.updateCenter()), List.of());
    PodSpec pod = StatefulSetRenderer.render(input).getSpec().getTemplate().getSpec();

    assertThat(pod.getVolumes()).extracting(Volume::getName).doesNotContain("update-center-ca");
    assertThat(env(container(pod.getContainers(), "jenkins")).get("JAVA_OPTS")).doesNotContain("updateCenterUrl");
    assertThat(pod.getInitContainers().get(1).getArgs()).doesNotContain("--jenkins-plugin-info");
  }

  @Test
  void aNewSigningCaLeavesThePodTemplateAloneAndANewServiceUrlRollsIt() {
    dev.varroa.api.v1alpha1.UpdateCenter before = RenderFixtures.managedUpdateCenter("git:5.8.0");
    dev.varroa.api.v1alpha1.UpdateCenter rotated = RenderFixtures.managedUpdateCenter("git:5.8.0");
    rotated.getStatus().signingCA = "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n";
    dev.varroa.api.v1alpha1.UpdateCenter moved = RenderFixtures.managedUpdateCenter("git:5.8.0");
    moved.getStatus().url = "http://varroa-uc-default.other.svc/update-center.json";

    assertThat(RestartHash.of(managed(rotated))).isEqualTo(RestartHash.of(managed(before)));
    assertThat(RestartHash.of(managed(moved))).isNotEqualTo(RestartHash.of(managed(before)));
  }

  private static RenderInput managed(dev.varroa.api.v1alpha1.UpdateCenter uc) {
    return input(resolved(controller("")), RenderFixtures.JCASC, profile(), Optional.of(uc), List.of());
  }

  @Test
  void asksMiteToDrainBeforeJenkinsStopsAndWaitsDrainTimeoutPlusMargin() {
    PodSpec pod = pod(render("reconciliation: {drainTimeoutSeconds: 1800}\n"));
    Container jenkins = container(pod.getContainers(), "jenkins");

    assertThat(jenkins.getLifecycle().getPreStop().getHttpGet()).isNull();
    List<String> command = jenkins.getLifecycle().getPreStop().getExec().getCommand();
    assertThat(command).hasSize(3).startsWith("sh", "-c");
    assertThat(command.get(2)).contains("http://127.0.0.1:9095/drain").contains("-X POST")
        .contains("token_file=/var/run/varroa/loopback-token").contains("Authorization: Bearer")
        .contains("--max-time " + (1800 + 60 - JenkinsContainer.PRESTOP_SLACK_SECONDS) + " ")
        .doesNotContain(":" + MiteSidecar.HEALTH_PORT);
    assertThat(pod.getTerminationGracePeriodSeconds()).isEqualTo(1800L + 60L);
    assertThat(pod(render("")).getTerminationGracePeriodSeconds()).isEqualTo(900L + 60L);
  }

  @Test
  void drainsFromInsideThePodWithTheLoopbackVolumeMountedInJenkins() {
    Container jenkins = container(pod(render("")).getContainers(), "jenkins");

    assertThat(jenkins.getVolumeMounts()).anySatisfy(m -> {
      assertThat(m.getName()).isEqualTo(PodVolumes.LOOPBACK_VOLUME);
      assertThat(m.getMountPath()).isEqualTo("/var/run/varroa");
    });
    assertThat(container(pod(render("")).getInitContainers(), "mite").getPorts())
        .extracting(p -> p.getContainerPort()).containsExactly(MiteSidecar.HEALTH_PORT);
  }

  @Test
  void givesACellItsArtifactPrefixAndItsPoolsCredentialAndOtherControllersNothing() {
    RenderInput plain = RenderFixtures.input(RenderFixtures.resolved(RenderFixtures.controller("shared-0", "")),
        RenderFixtures.JCASC, RenderFixtures.profile(), Optional.empty(), List.of());
    dev.varroa.operator.render.resolve.CellArtifactSettings artifacts =
        dev.varroa.operator.render.resolve.CellArtifactSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "s3",
            "VARROA_BLOB_S3_URL", "https://s3.example.com/varroa-records/eu", "VARROA_BLOB_S3_REGION", "eu-west-1",
            "VARROA_CLUSTER_NAME", "member-eu1", "VARROA_CELL_ARTIFACT_SECRET", "cell-artifacts")).orElseThrow();
    RenderInput withArtifacts = new RenderInput(plain.controller(), plain.profile(), plain.bundle(),
        plain.updateCenter(), plain.podTemplates(), plain.channel(),
        plain.installation().withCellArtifacts(Optional.of(artifacts)), plain.authorization(), plain.parking(),
        Optional.of(new CellLayer(List.of(), Map.of(), "git:5.8.0\n", Optional.empty(), false, "shared")));

    Container cell = container(pod(StatefulSetRenderer.render(withArtifacts)).getContainers(), "jenkins");
    Container notACell = container(pod(StatefulSetRenderer.render(new RenderInput(plain.controller(), plain.profile(),
        plain.bundle(), plain.updateCenter(), plain.podTemplates(), plain.channel(), withArtifacts.installation(),
        plain.authorization(), plain.parking(), Optional.empty()))).getContainers(), "jenkins");

    String name = plain.controller().name();
    String namespace = plain.controller().namespace();
    assertThat(env(cell)).containsEntry("VARROA_ARTIFACTS_URL", "https://s3.example.com/varroa-records/eu")
        .containsEntry("VARROA_ARTIFACTS_REGION", "eu-west-1")
        .containsEntry("VARROA_ARTIFACTS_PREFIX", "eu/artifacts/member-eu1/" + namespace + "/shared/" + name + "/");
    assertThat(cell.getEnv()).filteredOn(e -> e.getName().startsWith("AWS_")).extracting(
        e -> e.getName() + "=" + e.getValueFrom().getSecretKeyRef().getName() + "/"
            + e.getValueFrom().getSecretKeyRef().getKey())
        .containsExactly("AWS_ACCESS_KEY_ID=varroa-artifacts-shared/access-key-id",
            "AWS_SECRET_ACCESS_KEY=varroa-artifacts-shared/secret-access-key");
    assertThat(notACell.getEnv()).noneMatch(e -> e.getName().startsWith("VARROA_ARTIFACTS")
        || e.getName().startsWith("AWS_"));
    // a Controller someone marked as a cell by hand, with a name the pool would not give, archives nothing
    Container misnamed = container(pod(StatefulSetRenderer.render(new RenderInput(RenderFixtures.input("").controller(),
        plain.profile(), plain.bundle(), plain.updateCenter(), plain.podTemplates(), plain.channel(),
        withArtifacts.installation(), plain.authorization(), plain.parking(), withArtifacts.cell()))).getContainers(),
        "jenkins");
    assertThat(misnamed.getEnv()).noneMatch(e -> e.getName().startsWith("VARROA_ARTIFACTS"));
  }

  @Test
  void turnsTheClaimGateOnInJenkinsOnlyWhenTheControllerAsksForIt() {
    Container gated = container(pod(render("buildClaims: {gate: true}\n")).getContainers(), "jenkins");
    Container open = container(pod(render("")).getContainers(), "jenkins");

    assertThat(gated.getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo(JenkinsContainer.ENV_CLAIM_GATE);
      assertThat(e.getValue()).isEqualTo("true");
    });
    assertThat(open.getEnv()).noneMatch(e -> e.getName().equals(JenkinsContainer.ENV_CLAIM_GATE));
  }

  @Test
  void runsAsJenkinsServiceAccount() {
    assertThat(pod(render("")).getServiceAccountName()).isEqualTo("team-a-1b4e28ba");
  }

  @Test
  void mergesPodCustomisationIntoPodSpec() {
    StatefulSet sts = render("""
        podTemplate:
          labels: {cost-center: team-a, app.kubernetes.io/instance: hijack}
          annotations: {cluster-autoscaler.kubernetes.io/safe-to-evict: "false"}
          spec:
            nodeSelector: {node-pool: ci}
            tolerations: [{key: dedicated, operator: Equal, value: ci, effect: NoSchedule}]
            containers:
              - name: jenkins
                env: [{name: EXTRA, value: "1"}]
        """);
    PodSpec pod = pod(sts);

    assertThat(pod.getNodeSelector()).containsEntry("node-pool", "ci");
    assertThat(pod.getTolerations()).singleElement().satisfies(t -> assertThat(t.getKey()).isEqualTo("dedicated"));
    Container jenkins = container(pod.getContainers(), "jenkins");
    assertThat(pod.getContainers()).hasSize(1);
    assertThat(env(jenkins)).containsEntry("EXTRA", "1").containsKey("JAVA_OPTS");
    assertThat(sts.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("cost-center", "team-a")
        .containsEntry("app.kubernetes.io/instance", "team-a");
    assertThat(sts.getSpec().getTemplate().getMetadata().getAnnotations())
        .containsEntry("cluster-autoscaler.kubernetes.io/safe-to-evict", "false")
        .containsKey(RestartHash.ANNOTATION);
  }

  @Test
  void leavesPodTemplateByteIdenticalWhenOnlyJcascChanges() {
    ResolvedController controller = resolved(controller(""));
    RenderInput before = input(controller, "jenkins:\n  systemMessage: before\n", profile(), Optional.empty(), List.of());
    RenderInput after = input(controller, "jenkins:\n  systemMessage: after\n  numExecutors: 0\n", profile(),
        Optional.empty(), List.of());

    assertThat(before.bundle().digest()).isNotEqualTo(after.bundle().digest());
    assertThat(YAML.asYaml(StatefulSetRenderer.render(after)))
        .isEqualTo(YAML.asYaml(StatefulSetRenderer.render(before)));
  }

  @Test
  void changesRestartHashWhenPluginVersionChanges() {
    ResolvedController controller = resolved(controller(""));
    RenderInput before = input(controller, RenderFixtures.JCASC, profileWithGit("5.8.0"), Optional.empty(), List.of());
    RenderInput after = input(controller, RenderFixtures.JCASC, profileWithGit("5.9.0"), Optional.empty(), List.of());

    assertThat(annotation(after)).isNotEqualTo(annotation(before));
    assertThat(YAML.asYaml(StatefulSetRenderer.podTemplate(after)))
        .isNotEqualTo(YAML.asYaml(StatefulSetRenderer.podTemplate(before)));
  }

  @Test
  void changesRestartHashWhenMiteSpecOrResourcesChange() {
    String base = annotation(input(""));

    assertThat(annotation(input("miteSpec: {image: ghcr.io/varroa/mite:9.9.9}\n"))).isNotEqualTo(base);
    assertThat(annotation(input("jenkins: {resources: {limits: {memory: 8Gi}}}\n"))).isNotEqualTo(base);
    assertThat(annotation(input("jenkins: {javaOpts: -Xmx1g}\n"))).isNotEqualTo(base);
    assertThat(annotation(input(""))).isEqualTo(base);
  }

  private static String annotation(RenderInput input) {
    return StatefulSetRenderer.podTemplate(input).getMetadata().getAnnotations().get(RestartHash.ANNOTATION);
  }
}
