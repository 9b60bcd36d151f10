import type { ChartConfiguration } from "chart.js";
import { useCallback } from "react";
import { formatDay, formatShortDay, MOODS } from "../lib/format.ts";
import { participationLabel } from "../lib/participation.ts";
import type { MoodDay, ParticipationRow } from "../lib/types.ts";
import { ChartCanvas, type ChartTheme } from "./chart-canvas.tsx";

/** Loaded lazily (with Chart.js) by the pages that draw charts. */

function axes(theme: ChartTheme) {
  const ticks = { color: theme.muted };
  const grid = { color: theme.grid };
  return { ticks, grid };
}

export function ParticipationChart({ rows }: { rows: ParticipationRow[] }) {
  const config = useCallback(
    (theme: ChartTheme): ChartConfiguration<"bar"> => {
      const { ticks, grid } = axes(theme);
      return {
        type: "bar",
        data: {
          // A day still open is answered so far: labelled so, and drawn in a quieter colour.
          labels: rows.map((r) => (r.open ? `${formatShortDay(r.date)} (so far)` : formatShortDay(r.date))),
          datasets: [
            {
              label: "Participation",
              data: rows.map((r) => r.pct),
              backgroundColor: rows.map((r) => (r.open ? theme.muted : theme.primary)),
              borderRadius: 4,
              maxBarThickness: 28,
            },
          ],
        },
        options: {
          scales: {
            x: { ticks: { ...ticks, autoSkip: true, maxRotation: 0 }, grid: { display: false } },
            y: { min: 0, max: 100, ticks: { ...ticks, stepSize: 25, callback: (v) => `${v}%` }, grid },
          },
          plugins: {
            tooltip: {
              callbacks: {
                title: (items) => formatDay(rows[items[0]?.dataIndex ?? 0]?.date ?? ""),
                label: (item) => {
                  const r = rows[item.dataIndex];
                  return r ? participationLabel(r) : "";
                },
              },
            },
          },
        },
      };
    },
    [rows],
  );
  // The average is of the days that are over: a day still open has no final figure yet.
  const over = rows.filter((r) => !r.open);
  const avg = over.length ? Math.round(over.reduce((n, r) => n + r.pct, 0) / over.length) : 0;
  const open = rows.filter((r) => r.open);
  const soFar = open.map((r) => ` ${formatDay(r.date)}: ${participationLabel(r)}.`).join("");
  return (
    <ChartCanvas
      label={`Participation per standup day, ${rows.length} days, average ${avg}%.${soFar}`}
      config={config}
    />
  );
}

const scoreName = (score: number) => MOODS.find((m) => m.score === score)?.label ?? "";

export function MoodTrendChart({ daily }: { daily: MoodDay[] }) {
  const config = useCallback(
    (theme: ChartTheme): ChartConfiguration<"line"> => {
      const { ticks, grid } = axes(theme);
      return {
        type: "line",
        data: {
          labels: daily.map((d) => formatShortDay(d.date)),
          datasets: [
            {
              label: "Average mood",
              data: daily.map((d) => d.avg_score),
              borderColor: theme.accent,
              backgroundColor: theme.accent,
              pointRadius: 3,
              tension: 0.3,
            },
          ],
        },
        options: {
          scales: {
            x: { ticks: { ...ticks, autoSkip: true, maxRotation: 0 }, grid: { display: false } },
            y: {
              min: 1,
              max: 5,
              ticks: { ...ticks, stepSize: 1, callback: (v) => scoreName(Number(v)) },
              grid,
            },
          },
          plugins: {
            tooltip: {
              callbacks: {
                title: (items) => formatDay(daily[items[0]?.dataIndex ?? 0]?.date ?? ""),
                label: (item) => {
                  const d = daily[item.dataIndex];
                  if (!d) return "";
                  const n = Object.values(d.counts).reduce((a, b) => a + b, 0);
                  return `Average ${d.avg_score.toFixed(2)} of 5 from ${n} ${n === 1 ? "answer" : "answers"}`;
                },
              },
            },
          },
        },
      };
    },
    [daily],
  );
  return (
    <ChartCanvas label={`Average mood per day over ${daily.length} days, on a scale of 1 to 5.`} config={config} />
  );
}

export function MoodDistributionChart({ counts }: { counts: Record<string, number> }) {
  const config = useCallback(
    (theme: ChartTheme): ChartConfiguration<"bar"> => {
      const { ticks, grid } = axes(theme);
      return {
        type: "bar",
        data: {
          labels: MOODS.map((m) => m.label),
          datasets: [
            {
              label: "Answers",
              data: MOODS.map((m) => counts[m.emoji] ?? 0),
              backgroundColor: MOODS.map((m) => theme.moods[m.score - 1] ?? theme.primary),
              borderRadius: 4,
              maxBarThickness: 36,
            },
          ],
        },
        options: {
          indexAxis: "y",
          scales: {
            x: { beginAtZero: true, ticks: { ...ticks, precision: 0 }, grid },
            y: { ticks, grid: { display: false } },
          },
          plugins: {
            tooltip: {
              callbacks: {
                label: (item) => {
                  const m = MOODS[item.dataIndex];
                  return m ? `${m.emoji} ${m.label}: ${item.formattedValue}` : item.formattedValue;
                },
              },
            },
          },
        },
      };
    },
    [counts],
  );
  const summary = MOODS.map((m) => `${m.label} ${counts[m.emoji] ?? 0}`).join(", ");
  return <ChartCanvas label={`Mood distribution: ${summary}.`} config={config} height={220} />;
}
