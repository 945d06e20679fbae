package dev.varroa.testfixtures.kube;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Starts a real kube-apiserver and etcd (built by test-fixtures/kube/install.sh) once for the test
 * class, installs Varroa's CRDs from chart/crds/, and injects a {@link KubeApiServer} into test and
 * lifecycle methods.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(KubeApiServerExtension.class)
public @interface WithKubeApiServer {}
