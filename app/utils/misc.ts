import { useFormAction, useNavigation } from "@remix-run/react";

/** True while this form (or any, with state "non-idle") is submitting or loading its result. */
export function useIsPending({ formAction, formMethod = "POST" }: { formAction?: string; formMethod?: string } = {}) {
  const contextual = useFormAction();
  const navigation = useNavigation();
  return (
    navigation.state !== "idle" &&
    navigation.formAction === (formAction ?? contextual) &&
    navigation.formMethod === formMethod
  );
}

export function cn(...classes: (string | false | null | undefined)[]): string {
  return classes.filter(Boolean).join(" ");
}
