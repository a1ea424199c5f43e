import { Center, Loader } from '@mantine/core';
import { lazy, Suspense, useDeferredValue, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { analytics } from '../lib/analytics';
import { useCurrentUser } from '../lib/api/get-current-user';
import { usePublicConfig } from '../lib/api/get-public-config';
import { paths, PUBLIC_PATHS } from '../lib/paths';
import type { RealtimeClient } from '../lib/realtime';
import { RealtimeProvider } from '../lib/realtime-context';
import { CreateAccountPage } from '../features/auth/components/CreateAccountPage';
import { ForgotPasswordPage } from '../features/auth/components/ForgotPasswordPage';
import { LoginPage } from '../features/auth/components/LoginPage';
import { ResetPasswordPage } from '../features/auth/components/ResetPasswordPage';
import { ForbiddenPage } from '../features/errors/components/ForbiddenPage';
import { NotFoundPage } from '../features/errors/components/NotFoundPage';
import { HomePage } from '../features/home/components/HomePage';
import { AppLayout } from './layout/AppLayout';

// Sign-in and home come with the first load; every other screen loads its code when it is opened
// (issue 17: the first load stays within its budget, scripts/check-bundle-size.mjs).
const AuditLogPage = lazy(() => import('../features/audit/components/AuditLogPage').then((m) => ({ default: m.AuditLogPage })));
const ExhibitPage = lazy(() => import('../features/exhibit/components/ExhibitPage').then((m) => ({ default: m.ExhibitPage })));
const HardwarePage = lazy(() => import('../features/hardware/components/HardwarePage').then((m) => ({ default: m.HardwarePage })));
const HelpPage = lazy(() => import('../features/help/components/HelpPage').then((m) => ({ default: m.HelpPage })));
const OrganizationPage = lazy(() => import('../features/organization/components/OrganizationPage').then((m) => ({ default: m.OrganizationPage })));
const TwoFactorPage = lazy(() => import('../features/auth/components/TwoFactorPage').then((m) => ({ default: m.TwoFactorPage })));
const TwoFactorEnrolmentPage = lazy(() =>
  import('../features/auth/components/TwoFactorPage').then((m) => ({ default: m.TwoFactorEnrolmentPage })),
);
const SitePage = lazy(() => import('../features/site/components/SitePage').then((m) => ({ default: m.SitePage })));

/**
 * Startup (spec section 2): without a session the user goes to login unless on a public path;
 * with one, the realtime socket opens, and a valid session on /login goes home.
 */
export function AppRoutes({ realtime }: { realtime: RealtimeClient }) {
  const location = useLocation();
  const me = useCurrentUser();
  const config = usePublicConfig();
  // The screen behind the session check (the layout, its navigation, the page) is drawn in a
  // deferred render that React slices, not in one long task the moment GET /auth answers.
  const status = useDeferredValue(me.status);
  const signedIn = status === 'success';
  const isPublic = PUBLIC_PATHS.includes(location.pathname);

  useEffect(() => {
    if (config.data) analytics.init(config.data.analyticsUrl);
  }, [config.data]);
  useEffect(() => {
    analytics.identify(me.data?.id ?? null);
  }, [me.data?.id]);
  useEffect(() => {
    analytics.track('page_view', { path: location.pathname });
  }, [location.pathname]);

  if (status === 'pending') {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }

  if (!signedIn) {
    return (
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/create-account" element={<CreateAccountPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="*" element={<Navigate to="/login" replace state={{ from: location.pathname }} />} />
      </Routes>
    );
  }

  // An organization requires two-factor sign-in and it is not set up: the server answers nothing
  // else (403 TwoFactorEnrolmentRequired), so the console shows only the enrolment.
  if (me.data?.mustEnrolTwoFactor) {
    return (
      <Suspense fallback={<Loader aria-label="Loading" />}>
        <Routes>
          <Route path={paths.twoFactor()} element={<TwoFactorEnrolmentPage />} />
          <Route path="*" element={<Navigate to={paths.twoFactor()} replace />} />
        </Routes>
      </Suspense>
    );
  }

  return (
    <RealtimeProvider client={realtime} enabled={signedIn}>
      <Routes>
        {isPublic && location.pathname === '/login' && <Route path="/login" element={<Navigate to="/" replace />} />}
        <Route path="/create-account" element={<CreateAccountPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route element={<AppLayout />}>
          <Route path="/" element={<HomePage />} />
          <Route path={paths.twoFactor()} element={<TwoFactorPage />} />
          <Route path="/help/:helpId" element={<HelpPage />} />
          <Route path="/help" element={<Navigate to="/help/create_new_exhibit" replace />} />
          <Route path="/organization/:orgId/audit-log" element={<AuditLogPage />} />
          <Route path="/organization/:orgId/:orgTab" element={<OrganizationPage />} />
          <Route path="/organization/:orgId" element={<OrganizationPage />} />
          <Route path="/organization/:orgId/site/:siteId/:siteTab" element={<SitePage />} />
          <Route path="/organization/:orgId/site/:siteId" element={<SitePage />} />
          <Route path="/organization/:orgId/site/:siteId/exhibits/:exhibitId/:exhibitTab" element={<ExhibitPage />} />
          <Route path="/organization/:orgId/site/:siteId/exhibits/:exhibitId" element={<ExhibitPage />} />
          <Route path="/organization/:orgId/site/:siteId/hardware/:hardwareId/:hardwareTab" element={<HardwarePage />} />
          <Route path="/organization/:orgId/site/:siteId/hardware/:hardwareId" element={<HardwarePage />} />
          <Route path="/notfound" element={<NotFoundPage />} />
          <Route path="/forbidden" element={<ForbiddenPage />} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Routes>
    </RealtimeProvider>
  );
}
