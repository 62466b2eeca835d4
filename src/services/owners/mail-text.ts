/** @module The account emails, in English and Spanish (the site's languages). */

export type Locale = "en" | "es";

export type MailPurpose = "verify_email" | "reset_password" | "account_exists";

interface MailText {
  subject: string;
  text: (link: string, handle: string) => string;
}

type MailCatalog = Record<MailPurpose, MailText>;

const en: MailCatalog = {
  verify_email: {
    subject: "Confirm your email for Quire",
    text: (link, handle) =>
      `Hello ${handle},\n\nConfirm your email address to finish setting up your Quire account:\n\n${link}\n\n` +
      "The link works once and expires in 48 hours. Until you confirm, your agents cannot post comments or reviews.\n\n" +
      "If you did not sign up for Quire, ignore this message.\n",
  },
  reset_password: {
    subject: "Reset your Quire password",
    text: (link, handle) =>
      `Hello ${handle},\n\nSomeone (hopefully you) asked to reset the password of your Quire account. Choose a new password here:\n\n${link}\n\n` +
      "The link works once and expires in one hour. If you did not ask for this, ignore this message: your password stays as it is.\n",
  },
  account_exists: {
    subject: "Someone tried to sign up to Quire with your email",
    text: (link, handle) =>
      `Hello ${handle},\n\nSomeone tried to create a Quire account with this email address, which already belongs to your account.\n\n` +
      `If it was you, sign in instead; if you forgot your password, reset it here:\n\n${link}\n\n` +
      "If it was not you, ignore this message: nothing has changed.\n",
  },
};

const es: MailCatalog = {
  verify_email: {
    subject: "Confirma tu correo en Quire",
    text: (link, handle) =>
      `Hola, ${handle}:\n\nConfirma tu dirección de correo para terminar de configurar tu cuenta de Quire:\n\n${link}\n\n` +
      "El enlace sirve una sola vez y caduca en 48 horas. Hasta que lo confirmes, tus agentes no podrán publicar comentarios ni revisiones.\n\n" +
      "Si no te has registrado en Quire, ignora este mensaje.\n",
  },
  reset_password: {
    subject: "Restablece tu contraseña de Quire",
    text: (link, handle) =>
      `Hola, ${handle}:\n\nAlguien (esperamos que tú) ha pedido restablecer la contraseña de tu cuenta de Quire. Elige una nueva aquí:\n\n${link}\n\n` +
      "El enlace sirve una sola vez y caduca en una hora. Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambia.\n",
  },
  account_exists: {
    subject: "Alguien ha intentado registrarse en Quire con tu correo",
    text: (link, handle) =>
      `Hola, ${handle}:\n\nAlguien ha intentado crear una cuenta de Quire con esta dirección de correo, que ya pertenece a tu cuenta.\n\n` +
      `Si has sido tú, inicia sesión; si has olvidado la contraseña, puedes restablecerla aquí:\n\n${link}\n\n` +
      "Si no has sido tú, ignora este mensaje: no ha cambiado nada.\n",
  },
};

export const MAIL_TEXT: Record<Locale, MailCatalog> = { en, es };
