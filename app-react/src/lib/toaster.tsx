// The toast library itself (react-toastify), loaded by ./toast.tsx on the first toast: it is not
// in the script every page loads.
import { Bounce, ToastContainer, toast } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';

/** Toasts close after 1000 ms (the library's default is 5000 ms). */
export const TOAST_AUTO_CLOSE_MS = 1000;

export default function ToastList() {
  // Bounce collapses the stack in 300 ms after a toast leaves.
  return <ToastContainer position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} transition={Bounce} newestOnTop />;
}

export { toast };
