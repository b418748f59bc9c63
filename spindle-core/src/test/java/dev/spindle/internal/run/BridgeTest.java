package dev.spindle.internal.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The job factory is installed once, by {@code Job}'s initialiser, and cannot be replaced from outside. */
class BridgeTest {
    @Test
    void theCoreHasInstalledTheFactory() {
        assertThat(Bridge.get()).isNotNull();
    }

    @Test
    void installFromAnywhereButJobIsRefused() {
        Bridge.JobFactory installed = Bridge.get();
        assertThatThrownBy(() -> Bridge.install(installed))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Bridge.install is for the initialiser of dev.spindle.Job only")
                .hasMessageContaining(BridgeTest.class.getName());
        assertThat(Bridge.get()).isSameAs(installed);
    }
}
