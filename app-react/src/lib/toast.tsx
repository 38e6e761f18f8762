// The app's only door to the toast library (react-toastify), so swapping it is one file.
import { Bounce, ToastContainer, toast } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';

/** Toasts close after 1000 ms (the library's default is 5000 ms). */
export const TOAST_AUTO_CLOSE_MS = 1000;

export function Toaster() {
  // Bounce collapses the stack in 300 ms after a toast leaves.
  return <ToastContainer position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} transition={Bounce} newestOnTop />;
}

export const notify = {
  success: (message: string) => toast.success(message),
  error: (message: string) => toast.error(message),
  info: (message: string) => toast.info(message),
};
