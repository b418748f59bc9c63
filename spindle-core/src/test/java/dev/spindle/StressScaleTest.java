package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The stress lane's size knob: a count times the factor, rounded and at least 1; only positive factors. */
class StressScaleTest {

    @Test
    void aCountIsScaledRoundedAndKeptPositive() {
        assertThat(StressScale.scaled(20_000, 1)).isEqualTo(20_000);
        assertThat(StressScale.scaled(20_000, 0.1)).isEqualTo(2_000);
        assertThat(StressScale.scaled(300, 2.5)).isEqualTo(750);
        assertThat(StressScale.scaled(25, 0.1)).isEqualTo(3); // 2.5 rounds up
        assertThat(StressScale.scaled(3, 0.01)).isEqualTo(1);
        assertThat(StressScale.scaled(Integer.MAX_VALUE, 10)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void aCountBelowOneIsRefused() {
        assertThatThrownBy(() -> StressScale.scaled(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a stress size must be positive, was 0");
    }

    @Test
    void theFactorIsADecimal() {
        assertThat(StressScale.parse("1")).isEqualTo(1.0);
        assertThat(StressScale.parse(" 0.25 ")).isEqualTo(0.25);
        assertThat(StressScale.parse("4")).isEqualTo(4.0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "", "x", "NaN", "Infinity"})
    void aFactorThatIsNotPositiveAndFiniteIsRefused(String text) {
        assertThatThrownBy(() -> StressScale.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("spindle.stress.scale must be a positive number, was '" + text + "'");
    }

    @Test
    void everyStressSizeUsesTheFactorOfThisJvm() {
        double factor = StressScale.parse(System.getProperty(StressScale.PROPERTY, "1"));
        assertThat(StressScale.FACTOR).isEqualTo(factor);
        assertThat(StressScale.of(1_000)).isEqualTo(StressScale.scaled(1_000, factor));
    }
}
