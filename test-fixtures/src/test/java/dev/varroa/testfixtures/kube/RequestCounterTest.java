package dev.varroa.testfixtures.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class RequestCounterTest {
  @Test
  void sortsRequestsIntoGetsListsWatchesAndWrites() {
    assertThat(RequestCounter.kind("GET", URI.create("https://k/api/v1/namespaces/ci/secrets/token")))
        .isEqualTo(RequestCounter.Kind.GET);
    assertThat(RequestCounter.kind("GET", URI.create("https://k/api/v1/namespaces/ci-jobs")))
        .isEqualTo(RequestCounter.Kind.GET);
    assertThat(RequestCounter.kind("GET", URI.create("https://k/apis/varroa.dev/v1alpha1/provisioningdefaults/default")))
        .isEqualTo(RequestCounter.Kind.GET);
    assertThat(RequestCounter.kind("GET", URI.create("https://k/apis/apps/v1/namespaces/ci/statefulsets/j-1/status")))
        .isEqualTo(RequestCounter.Kind.GET);
    assertThat(RequestCounter.kind("GET", URI.create("https://k/api/v1/namespaces/ci/pods?labelSelector=a%3Db")))
        .isEqualTo(RequestCounter.Kind.LIST);
    assertThat(RequestCounter.kind("GET", URI.create("https://k/apis/varroa.dev/v1alpha1/updatecenters")))
        .isEqualTo(RequestCounter.Kind.LIST);
    assertThat(RequestCounter.kind("GET", URI.create("https://k/api/v1/namespaces")))
        .isEqualTo(RequestCounter.Kind.LIST);
    assertThat(RequestCounter.kind("GET", URI.create("https://k/api/v1/secrets?watch=true&resourceVersion=5")))
        .isEqualTo(RequestCounter.Kind.WATCH);
    assertThat(RequestCounter.kind("PATCH", URI.create("https://k/api/v1/namespaces/ci/configmaps/x")))
        .isEqualTo(RequestCounter.Kind.WRITE);
  }
}
