package dev.varroa.testfixtures.process;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExecutableTest {

    @Test
    void namesTheDebianPackageWhenABinaryIsMissing() {
        assertThatThrownBy(() -> Executable.require("varroa-no-such-server", "varroa-no-such-package"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("varroa-no-such-server not found: run `make deps`"
                        + " (installs the Debian package varroa-no-such-package)");
    }

    @Test
    void looksInTheDebianSystemDirectoriesWhenPathIsEmpty() {
        assertThat(Executable.find("sh", "")).hasValueSatisfying(
                executable -> assertThat(executable.path().getParent().toString()).isIn("/usr/sbin", "/usr/bin"));
    }
}
