import { lazy } from "react";

/** Chart.js arrives with the first chart drawn, not with the first page. */
const charts = () => import("./charts.tsx");

export const ParticipationChart = lazy(() => charts().then((m) => ({ default: m.ParticipationChart })));
export const MoodTrendChart = lazy(() => charts().then((m) => ({ default: m.MoodTrendChart })));
export const MoodDistributionChart = lazy(() => charts().then((m) => ({ default: m.MoodDistributionChart })));
