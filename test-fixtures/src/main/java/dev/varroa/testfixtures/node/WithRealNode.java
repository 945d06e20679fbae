package dev.varroa.testfixtures.node;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a test class on the real node ({@link RealNodeExtension}); tests take a {@link RealNode}. Tagged
 * {@value #TAG}: `make test` runs these after `make images`, since the node runs the images it built.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RealNodeExtension.class)
@Tag(WithRealNode.TAG)
public @interface WithRealNode {
  String TAG = "real-node";
}
