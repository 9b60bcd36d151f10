import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  type ChartType,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { useEffect, useRef, useSyncExternalStore } from "react";

// Only what the dashboard draws: bar and line charts on category/linear axes, with tooltips.
Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Tooltip,
);

export interface ChartTheme {
  dark: boolean;
  text: string;
  muted: string;
  grid: string;
  primary: string;
  primarySoft: string;
  accent: string;
  warning: string;
  moods: string[];
  font: string;
}

const DARK_QUERY = "(prefers-color-scheme: dark)";

function subscribeScheme(callback: () => void): () => void {
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener("change", callback);
  return () => media.removeEventListener("change", callback);
}

const isDark = () => window.matchMedia(DARK_QUERY).matches;

/** Colours come from the stylesheet's custom properties, so light and dark mode stay in one place. */
function readTheme(dark: boolean): ChartTheme {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    dark,
    text: v("--text", dark ? "#e6edf3" : "#1f2328"),
    muted: v("--muted", dark ? "#9da7b3" : "#59636e"),
    grid: v("--chart-grid", dark ? "#30363d" : "#e5e7eb"),
    primary: v("--primary", "#4f46e5"),
    primarySoft: v("--chart-primary-soft", "rgba(79,70,229,0.25)"),
    accent: v("--chart-accent", "#0ea5e9"),
    warning: v("--warning", "#d97706"),
    moods: [1, 2, 3, 4, 5].map((n) => v(`--mood-${n}`, "#888")),
    font: v("--font", "system-ui, sans-serif"),
  };
}

export function useChartTheme(): ChartTheme {
  const dark = useSyncExternalStore(subscribeScheme, isDark);
  return readTheme(dark);
}

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * A Chart.js chart on a canvas. `label` describes the chart to screen readers (the canvas is an image);
 * pages also show the numbers as text. The chart is rebuilt when the colour scheme or the data change.
 */
export function ChartCanvas<T extends ChartType>({
  label,
  config,
  height = 260,
}: {
  label: string;
  config: (theme: ChartTheme) => ChartConfiguration<T>;
  height?: number;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const dark = useSyncExternalStore(subscribeScheme, isDark);
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const theme = readTheme(dark);
    Chart.defaults.font.family = theme.font;
    Chart.defaults.color = theme.muted;
    Chart.defaults.borderColor = theme.grid;
    const built = config(theme);
    const chart = new Chart(canvas, {
      ...built,
      options: {
        responsive: true,
        maintainAspectRatio: false,
        ...(reducedMotion() ? { animation: false } : {}),
        ...built.options,
      },
    } as ChartConfiguration<T>);
    return () => chart.destroy();
  }, [config, dark]);
  return (
    <div className="chart" style={{ height }}>
      <canvas ref={canvasRef} role="img" aria-label={label} />
    </div>
  );
}
